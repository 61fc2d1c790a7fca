"""Warm dependency imports for the fork-server (zygote.py): the modules a tools folder's Python
files import at top level, imported once before the first fork so that calls need not.

Contract:
- Names come from the files' syntax trees (`ast`): no user code runs. A three-layer execution.py
  is a str.format template; it is read with its placeholders as None.
- A name qualifies only when its module resolves outside every folder of `forbid` (the tool
  folders and every folder a call can write: the working folder, writable folders, /tmp) and no
  such folder holds a module of that name: user code never enters a process shared by calls.
- Each qualifying module is first imported in a throwaway child, one after the other: one that
  fails, takes longer than `maxMs`, starts a thread or loads a module from a forbidden folder is
  left out with the reason. Native thread pools are held to one thread while importing
  (OPENBLAS_NUM_THREADS=1 ...), so numpy qualifies. Only then does the fork-server import them.
- A call whose own folder (or working folder, for code) ships a module of a name preloaded here
  (or loaded by a preload) gets none of the preloads (`shadowed`): it imports as a cold run would.

`python preload.py` reads a list of {"folder", "files", "forbid", "maxMs"} as JSON on stdin and
prints, for each, {"folder", "preloaded": [...], "leftOut": [{"name", "why"}]} after probing,
importing nothing into itself (`tools check`).
"""
import ast
import importlib
import importlib.machinery
import json
import os
import select
import signal
import string
import sys
import time

THREAD_VARS = ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'NUMEXPR_NUM_THREADS', 'VECLIB_MAXIMUM_THREADS')
MAX_SOURCE_BYTES = 1 << 20
# The folders of the files read for the preload: a module of a preloaded name appearing there
# later turns the preloads off for the calls that follow (see shadowed).
FOLDERS = set()
# Top-level names of the modules kept for calls that a cold run would import itself (see shadowed).
SHADOWABLE = set()
# Ours, never kept for a call: a script of the same name in its folder is the one it imports.
OUR_MODULES = {'__main__', 'run_tool', 'preload', 'zygote_call', 'zygote_os', 'call_mounts'}


# ---- what the files import ---------------------------------------------------------------

def parse(path):
    try:
        with open(path, 'rb') as f:
            source = f.read(MAX_SOURCE_BYTES + 1)
    except OSError:
        return None
    if len(source) > MAX_SOURCE_BYTES:
        return None
    try:
        return ast.parse(source, path)
    except (SyntaxError, ValueError):
        pass
    try:
        # A str.format template: "{{" is "{", a placeholder becomes a value.
        text = ''.join(lit + ('None' if field is not None else '') for lit, field, _, _ in string.Formatter().parse(source.decode('utf-8')))
        return ast.parse(text, path)
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return None


def top_level_imports(tree):
    """Absolute imports of the module body (also inside top-level if/try/with), not of functions."""
    found = []
    body = list(tree.body)
    while body:
        node = body.pop(0)
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
        elif isinstance(node, (ast.If, ast.Try, ast.With)) or type(node).__name__ == 'TryStar':
            for part in ('body', 'orelse', 'finalbody'):
                body.extend(getattr(node, part, []) or [])
            for handler in getattr(node, 'handlers', []) or []:
                body.extend(handler.body)
    return [name for name in found if name.split('.')[0] != '__future__']


def candidates(files):
    names = []
    for path in files:
        tree = parse(path)
        for name in top_level_imports(tree) if tree is not None else []:
            if name not in names:
                names.append(name)
    return names


# ---- where they come from ------------------------------------------------------------------

def inside(path, folders):
    real = os.path.realpath(path)
    return any(real == f or real.startswith(f.rstrip('/') + '/') for f in folders)


def search_path():
    """Where the fork-server imports from: the interpreter's paths, never our own folder or ''."""
    here = os.path.dirname(os.path.abspath(__file__))
    return [p for p in sys.path if p and os.path.abspath(p) != here]


def why_not(name, forbid, path):
    """Why `name` may not be preloaded, or None."""
    top = name.split('.')[0]
    for folder in forbid:
        if os.path.isdir(folder) and importlib.machinery.PathFinder.find_spec(top, [folder]) is not None:
            return 'a tool or writable folder has its own (%s)' % folder
    if top in sys.builtin_module_names or importlib.machinery.FrozenImporter.find_spec(top) is not None:
        return None
    spec = importlib.machinery.PathFinder.find_spec(top, path)
    if spec is None:
        return 'not installed for this interpreter'
    places = [spec.origin] if spec.origin and spec.has_location else []
    places += list(spec.submodule_search_locations or [])
    for place in places:
        if inside(place, forbid):
            return 'it is in a folder calls can write (%s)' % place
    return None


def qualifying(names, forbid):
    """(names that may be probed, [{name, why}] of the others), in order."""
    path = search_path()
    real = [os.path.realpath(f) for f in forbid if f]
    keep, left = [], []
    for name in names:
        if name in sys.modules:
            continue  # loaded by the interpreter's start: nothing to win
        why = why_not(name, real, path)
        if why is None:
            keep.append(name)
        else:
            left.append({'name': name, 'why': why})
    return keep, left


# ---- trying them in a throwaway child ------------------------------------------------------

def thread_count():
    try:
        return len(os.listdir('/proc/self/task'))
    except OSError:
        threading = sys.modules.get('threading')
        return threading.active_count() if threading else 1


def import_checked(name, forbid):
    """Imports `name` here; None, or why it does not qualify."""
    before = set(sys.modules)
    try:
        importlib.import_module(name)
    except BaseException as error:  # noqa: BLE001 (SystemExit at import counts too)
        return 'its import failed: %s: %s' % (type(error).__name__, error)
    if thread_count() > 1:
        return 'its import starts a thread'
    for added in set(sys.modules) - before:
        file = getattr(sys.modules.get(added), '__file__', None)
        if file and inside(file, forbid):
            return 'it loads %s from a folder calls can write (%s)' % (added, file)
    return None


def probe_child(names, forbid, out):
    os.setsid()
    sys.path[:] = search_path()
    for var in THREAD_VARS:
        os.environ[var] = '1'
    for name in names:
        why = import_checked(name, forbid)
        os.write(out, (json.dumps([name, why]) + '\n').encode())
        if why is not None:
            return  # what ran may have left state behind: the rest is tried in a fresh child


def probe(names, forbid, max_ms):
    """Tries `names` in children of this process; (names that qualify, [{name, why}])."""
    real = [os.path.realpath(f) for f in forbid if f]
    ok, left = [], []
    rest = list(names)
    budget_ends = time.monotonic() + budget_s(max_ms)
    while rest:
        if time.monotonic() >= budget_ends:
            left += [{'name': n, 'why': 'the time for preloading (%g s) ran out before it' % budget_s(max_ms)} for n in rest]
            break
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                probe_child(rest, real, w)
            finally:
                os._exit(0)
        os.close(w)
        done, ended = read_verdicts(r, len(rest), max_ms / 1000.0, budget_ends)
        os.close(r)
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(pid, 0)
        for name, why in done:
            (ok.append(name) if why is None else left.append({'name': name, 'why': why}))
        if len(done) < len(rest) and (not done or done[-1][1] is None):
            # The child stopped answering in the next import, or ended in it.
            stuck = rest[len(done)]
            why = 'its import ended the process' if ended else 'its import took longer than %g s' % (max_ms / 1000.0)
            left.append({'name': stuck, 'why': why})
            done.append((stuck, why))
        rest = rest[len(done):]
    return ok, left


def budget_s(max_ms):
    """All probing of one fork-server ends within this (the app waits for it to be ready)."""
    return 2 * max_ms / 1000.0 + 3


def read_verdicts(fd, count, bound_s, budget_ends):
    """([name, why] until `count`, the child's end, or one import taking longer than `bound_s`), ended."""
    done, pending = [], b''
    deadline = time.monotonic() + bound_s
    while len(done) < count:
        left = min(deadline, budget_ends) - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return done, False
        data = os.read(fd, 1 << 16)
        if not data:
            return done, True
        pending += data
        while b'\n' in pending:
            line, pending = pending.split(b'\n', 1)
            done.append(tuple(json.loads(line)))
            deadline = time.monotonic() + bound_s
    return done, False


# ---- in the fork-server --------------------------------------------------------------------

def plan(spec):
    """(names to import, [{name, why}] left out) for a spec {files, forbid, maxMs}."""
    names, left = qualifying(candidates(spec.get('files', [])), spec.get('forbid', []))
    ok, failed = probe(names, spec.get('forbid', []), spec.get('maxMs', 2000))
    return ok, left + failed


def preload(names):
    """Imports `names` into this process; the names imported."""
    saved_path = list(sys.path)
    saved_env = {var: os.environ.get(var) for var in THREAD_VARS}
    for var in THREAD_VARS:
        os.environ[var] = '1'
    sys.path[:] = search_path()
    loaded = []
    try:
        for name in names:
            before = set(sys.modules)
            try:
                importlib.import_module(name)
            except BaseException:  # noqa: BLE001 (it imported in the probe: leave it to the call)
                for added in set(sys.modules) - before:
                    del sys.modules[added]
                continue
            loaded.append(name)
    finally:
        sys.path[:] = saved_path
        for var, value in saved_env.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value
    return loaded


def read_line(fd):
    """The first line on `fd`. The app sends nothing after it before the fork-server is ready."""
    data = b''
    while b'\n' not in data:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        data += chunk
    return data.split(b'\n', 1)[0]


def start(requests_fd, events_fd, site_modules):
    """The fork-server's preload, before its first fork: ({preloaded, leftOut}, the modules a call
    keeps). Its request is the first line on `requests_fd`. A call keeps every module loaded by
    now but our own: dropping one a preloaded module uses would give the call a second copy of it
    (a second json.JSONDecodeError class that requests' errors do not derive from)."""
    try:
        spec = json.loads(read_line(requests_fd) or b'{}')
    except ValueError:
        spec = {}
    names, left = plan(spec)
    FOLDERS.update(os.path.dirname(f) for f in spec.get('files', []))
    loaded = preload(names)
    if thread_count() > 1:
        # A thread the probe did not see: a process with threads must not fork. Start again
        # without preloads, on the same pipes to the app.
        os.dup2(requests_fd, 0)
        os.dup2(events_fd, 1)
        os.execv(sys.executable, [a for a in sys.orig_argv if a != '--preload'])
    left += [{'name': n, 'why': 'its import failed in the fork-server'} for n in names if n not in loaded]
    if not loaded:
        return {'preloaded': [], 'leftOut': left}, set()
    kept = set(sys.modules) - OUR_MODULES
    # What a cold run would not have loaded before the call's code: a folder may shadow these.
    # (Built-in modules are found before any folder: no folder can shadow those.)
    SHADOWABLE.update(m.split('.')[0] for m in kept - set(site_modules) if m.split('.')[0] not in sys.builtin_module_names)
    return {'preloaded': loaded, 'leftOut': left}, kept


def first_folder(request):
    """The folder a call imports from first (sys.path[0] of its cold run)."""
    if request['kind'] == 'module':
        return os.path.dirname(os.path.abspath(request['file']))
    if request['kind'] == 'script':
        return os.path.dirname(os.path.realpath(request['file']))
    return os.getcwd()


def module_names(folder):
    """The top-level module names `folder` holds (files and packages), as an import would see them."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return set()
    suffixes = sorted(importlib.machinery.all_suffixes(), key=len, reverse=True)
    names = set()
    for entry in entries:
        for suffix in suffixes:
            if entry.endswith(suffix):
                names.add(entry[:-len(suffix)])
                break
        else:
            names.add(entry)  # a package or namespace folder (a plain file costs only a false alarm)
    return names


def shadowed(folder):
    """Whether `folder` (a call's first import folder) or a folder the preload read has its own
    module of a name loaded by the preload (a direct import or one of theirs): then the call gets
    none of the preloads and imports as a cold run would."""
    return any(not SHADOWABLE.isdisjoint(module_names(f)) for f in FOLDERS | {folder})


def report(requests):
    """`tools check`: the plan of each request {folder, files, forbid, maxMs}, each module probed once."""
    planned = [(r, qualifying(candidates(r.get('files', [])), r.get('forbid', []))) for r in requests]
    names, forbid = [], set()
    for request, (keep, _) in planned:
        names += [n for n in keep if n not in names]
        forbid.update(request.get('forbid', []))
    ok, failed = probe(names, sorted(forbid), max([r.get('maxMs', 2000) for r in requests] or [2000]))
    why = {f['name']: f['why'] for f in failed}
    return [{'folder': r.get('folder'), 'preloaded': [n for n in keep if n in ok],
             'leftOut': left + [{'name': n, 'why': why[n]} for n in keep if n in why]} for r, (keep, left) in planned]


if __name__ == '__main__':
    sys.stdout.write(json.dumps(report(json.loads(sys.stdin.read() or '[]'))) + '\n')
