"""Docstrings of Python tools read as their descriptions: Google (`Args:`), reST (`:param x:`) and
NumPy (`Parameters` / `----------`) styles give the summary, each parameter's text and the
return's. Used by parse_modules.py."""
import re

GOOGLE_PARAM_HEADERS = {'args', 'arguments', 'parameters', 'params', 'keyword args', 'keyword arguments', 'kwargs'}
GOOGLE_RETURN_HEADERS = {'returns', 'return', 'yields', 'yield'}
GOOGLE_DROPPED_HEADERS = {'raises', 'raise', 'exceptions'}
NUMPY_SECTION = re.compile(r'^\s*(Parameters|Other Parameters|Returns|Yields|Raises|Warns|See Also|Notes|Examples|References|Attributes)\s*$')


def parse_docstring(doc):
    """Returns {description, params: {name: {type?, description}}, returns: {type?, description}?}."""
    if not doc:
        return {'description': '', 'params': {}, 'returns': None}
    lines = doc.expandtabs().splitlines()
    if any(re.match(r'^\s*:(param|parameter|arg|argument|key|keyword|type|returns?|rtype|raises?)\b', l) for l in lines):
        return parse_rest(lines)
    for i in range(len(lines) - 1):
        if NUMPY_SECTION.match(lines[i]) and re.match(r'^\s*-{3,}\s*$', lines[i + 1]):
            return parse_numpy(lines)
    return parse_google(lines)


def clean_join(lines):
    text = '\n'.join(lines).strip('\n')
    return re.sub(r'\n{3,}', '\n\n', text).strip()


def indent_of(line):
    return len(line) - len(line.lstrip())


def parse_google(lines):
    description, params, returns = [], {}, None
    i = 0
    while i < len(lines):
        line = lines[i]
        header = line.strip().rstrip(':').lower() if line.strip().endswith(':') else None
        if header in GOOGLE_PARAM_HEADERS | GOOGLE_RETURN_HEADERS | GOOGLE_DROPPED_HEADERS:
            base = indent_of(line)
            body = []
            i += 1
            while i < len(lines) and (not lines[i].strip() or indent_of(lines[i]) > base):
                body.append(lines[i])
                i += 1
            if header in GOOGLE_PARAM_HEADERS:
                params.update(google_entries(body))
            elif header in GOOGLE_RETURN_HEADERS:
                returns = google_returns(body)
            continue
        description.append(line)
        i += 1
    return {'description': clean_join(description), 'params': params, 'returns': returns}


def entry_lines(body):
    """The non-blank lines of a section, each with whether it starts an entry (least indented)."""
    texts = [l for l in body if l.strip()]
    base = min((indent_of(l) for l in texts), default=0)
    return [(l, indent_of(l) == base) for l in texts]


def append_description(entry, line):
    entry['description'] = (entry['description'] + ' ' + line.strip()).strip()


def google_entries(body):
    entries, current = {}, None
    for line, starts in entry_lines(body):
        if starts:
            m = re.match(r'^\s*\*{0,2}([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$', line)
            if m:
                current = m.group(1)
                kind = (m.group(2) or '').replace(', optional', '').replace(',optional', '').strip()
                entries[current] = {'type': kind or None, 'description': m.group(3).strip()}
                continue
        if current:
            append_description(entries[current], line)
    return entries


def google_returns(body):
    text = ' '.join(l.strip() for l in body if l.strip())
    m = re.match(r'^([A-Za-z_][\w\[\], .|]*?)\s*:\s*(.*)$', text)
    if m and len(m.group(1)) < 60:
        return {'type': m.group(1).strip(), 'description': m.group(2).strip()}
    return {'type': None, 'description': text}


def parse_rest(lines):
    description, params, returns = [], {}, None
    types = {}
    field = None
    for line in lines:
        m = re.match(r'^\s*:(\w+)(?:\s+([^:]*?))?\s*:\s*(.*)$', line)
        if m:
            kind, target, text = m.group(1), (m.group(2) or '').strip(), m.group(3).strip()
            field = None
            if kind in ('param', 'parameter', 'arg', 'argument', 'key', 'keyword') and target:
                parts = target.split()
                name = parts[-1]
                params[name] = {'type': ' '.join(parts[:-1]) or None, 'description': text}
                field = ('param', name)
            elif kind == 'type' and target:
                types[target] = text
            elif kind in ('returns', 'return'):
                returns = returns or {'type': None, 'description': ''}
                returns['description'] = text
                field = ('returns', None)
            elif kind == 'rtype':
                returns = returns or {'type': None, 'description': ''}
                returns['type'] = text
            else:
                field = ('skip', None)
            continue
        if field is not None:
            if line.strip():
                if field[0] == 'param':
                    params[field[1]]['description'] += ' ' + line.strip()
                elif field[0] == 'returns':
                    returns['description'] = (returns['description'] + ' ' + line.strip()).strip()
            continue
        description.append(line)
    for name, kind in types.items():
        params.setdefault(name, {'type': None, 'description': ''})['type'] = kind
    return {'description': clean_join(description), 'params': params, 'returns': returns}


def parse_numpy(lines):
    description, params, returns = [], {}, None
    i = 0
    section = None
    while i < len(lines):
        line = lines[i]
        if NUMPY_SECTION.match(line) and i + 1 < len(lines) and re.match(r'^\s*-{3,}\s*$', lines[i + 1]):
            section = line.strip()
            i += 2
            continue
        if section is None or section in ('Notes', 'Examples', 'See Also', 'References'):
            if section is None:
                description.append(line)
            i += 1
            continue
        body = []
        while i < len(lines) and not (NUMPY_SECTION.match(lines[i]) and i + 1 < len(lines) and re.match(r'^\s*-{3,}\s*$', lines[i + 1])):
            body.append(lines[i])
            i += 1
        entries = numpy_entries(body)
        if section in ('Parameters', 'Other Parameters'):
            params.update(entries)
        elif section in ('Returns', 'Yields') and entries:
            first_name, first = next(iter(entries.items()))
            kind = first['type'] or first_name
            returns = {'type': kind, 'description': first['description']}
        section = None
    return {'description': clean_join(description), 'params': params, 'returns': returns}


def numpy_entries(body):
    entries, current = {}, None
    for line, starts in entry_lines(body):
        if starts:
            name, _, kind = line.strip().partition(':')
            current = name.strip()
            kind = kind.replace(', optional', '').strip()
            entries[current] = {'type': kind or None, 'description': ''}
        elif current:
            append_description(entries[current], line)
    return entries


# ---- modules -----------------------------------------------------------------------------------
