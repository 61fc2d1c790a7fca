"""Python annotations and defaults as JSON Schema, read from the AST (nothing is imported or run):
`type_name` names an annotation, SchemaBuilder turns one into a schema (unions, Optional,
Literal, containers; a name it cannot map becomes a diagnostic), json_default and
literal_or_none read a default. Used by parse_modules.py and parse_openwebui.py."""
import ast
import json

SIMPLE_TYPES = {
    'str': {'type': 'string'}, 'string': {'type': 'string'},
    'int': {'type': 'integer'}, 'integer': {'type': 'integer'},
    'float': {'type': 'number'}, 'number': {'type': 'number'},
    'bool': {'type': 'boolean'}, 'boolean': {'type': 'boolean'},
    'list': {'type': 'array'}, 'List': {'type': 'array'}, 'Sequence': {'type': 'array'},
    'Iterable': {'type': 'array'}, 'set': {'type': 'array'}, 'Set': {'type': 'array'},
    'tuple': {'type': 'array'}, 'Tuple': {'type': 'array'},
    'dict': {'type': 'object'}, 'Dict': {'type': 'object'}, 'Mapping': {'type': 'object'},
    'object': {}, 'Any': {},
}
ARRAY_NAMES = {'list', 'List', 'Sequence', 'Iterable', 'set', 'Set', 'frozenset', 'FrozenSet'}
TUPLE_NAMES = {'tuple', 'Tuple'}
DICT_NAMES = {'dict', 'Dict', 'Mapping', 'MutableMapping'}


class Unsupported(Exception):
    pass


def type_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class SchemaBuilder:
    def __init__(self, diagnostics):
        self.diagnostics = diagnostics

    def build(self, node, line):
        """Returns (schema, optional) for an annotation node."""
        if node is None:
            return {}, False
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode='eval').body
            except SyntaxError:
                return self.unknown(node.value, line), False
        if isinstance(node, ast.Constant) and node.value is None:
            return {'type': 'null'}, True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.union(flatten_bitor(node), line)
        name = type_name(node)
        if name is not None:
            if name in SIMPLE_TYPES:
                return dict(SIMPLE_TYPES[name]), False
            if name == 'None' or name == 'NoneType':
                return {'type': 'null'}, True
            return self.unknown(ast.unparse(node), line), False
        if isinstance(node, ast.Subscript):
            base = type_name(node.value)
            inner = node.slice
            elements = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
            if base == 'Optional':
                schema, _ = self.build(elements[0], line)
                return schema, True
            if base == 'Union':
                return self.union(elements, line)
            if base == 'Literal':
                return literal_schema(elements), False
            if base == 'Annotated':
                schema, optional = self.build(elements[0], line)
                notes = [e.value for e in elements[1:] if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                if notes:
                    schema['description'] = ' '.join(notes)
                return schema, optional
            if base in ARRAY_NAMES:
                items, _ = self.build(elements[0], line)
                return ({'type': 'array', 'items': items} if items else {'type': 'array'}), False
            if base in TUPLE_NAMES:
                if len(elements) == 2 and isinstance(elements[1], ast.Constant) and elements[1].value is Ellipsis:
                    items, _ = self.build(elements[0], line)
                    return {'type': 'array', 'items': items}, False
                prefix = [self.build(e, line)[0] for e in elements]
                return {'type': 'array', 'prefixItems': prefix, 'minItems': len(prefix), 'maxItems': len(prefix)}, False
            if base in DICT_NAMES:
                if len(elements) == 2:
                    values, _ = self.build(elements[1], line)
                    return ({'type': 'object', 'additionalProperties': values} if values else {'type': 'object'}), False
                return {'type': 'object'}, False
            return self.unknown(ast.unparse(node), line), False
        return self.unknown(ast.unparse(node), line), False

    def union(self, members, line):
        optional = False
        schemas = []
        for member in members:
            schema, member_optional = self.build(member, line)
            if schema == {'type': 'null'}:
                optional = True
                continue
            optional = optional or member_optional
            if schema not in schemas:
                schemas.append(schema)
        if not schemas:
            return {}, optional
        if len(schemas) == 1:
            return schemas[0], optional
        return {'anyOf': schemas}, optional

    def unknown(self, text, line):
        self.diagnostics.append({
            'severity': 'warning', 'line': line, 'code': 'unsupported-annotation',
            'message': 'Unsupported type annotation %r: the parameter is described to the model as a string' % text,
            'hint': 'Use str, int, float, bool, list[...], dict[...], Optional[...] or Literal[...] for tool parameters.',
        })
        return {'type': 'string', 'description': 'Expected a %s (passed as a string).' % text}


def flatten_bitor(node):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return flatten_bitor(node.left) + flatten_bitor(node.right)
    return [node]


def literal_schema(elements):
    values = []
    for e in elements:
        try:
            values.append(ast.literal_eval(e))
        except ValueError:
            pass
    kinds = {json_type(v) for v in values}
    schema = {'enum': values}
    if len(kinds) == 1 and None not in kinds:
        schema = {'type': kinds.pop(), 'enum': values}
    return schema


def json_type(value):
    if isinstance(value, bool):
        return 'boolean'
    if isinstance(value, int):
        return 'integer'
    if isinstance(value, float):
        return 'number'
    if isinstance(value, str):
        return 'string'
    if value is None:
        return 'null'
    return None


def json_default(node):
    """The default's JSON value, or raise Unsupported when it is not a JSON-able literal."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        raise Unsupported(ast.unparse(node))
    if isinstance(value, (tuple, set, frozenset)):
        value = list(value)
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        raise Unsupported(ast.unparse(node))
    return value


# ---- docstrings --------------------------------------------------------------------------------


def literal_or_none(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None
