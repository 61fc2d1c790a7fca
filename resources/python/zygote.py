"""Fork-server ("zygote") for Python tool calls: started once inside the tool's sandbox, it forks a
fresh process per call, so a call costs a fork instead of an interpreter start and every call
still imports the user's code anew (an edited module is seen, nothing leaks between calls).

Usage: python [-u] zygote.py SOCKET [--private-tmp] [--preload]   (started by the app; never by hand)
--preload: the first line in is {files, forbid, maxMs} (see preload.py); `ready` then lists
`preloaded` and `leftOut`.

Requests come as JSON lines on stdin; events go out as JSON lines on stdout:
  in  {"id": I, "token": T}           fork a call's process ahead of its call (a "spare")
  in  {"go": I, ...the call}          run that call in spare I
  out {"ready": true, "pid": N}       once, when it can take calls
  out {"id": I, "pid": N}             a spare was forked (its pid as seen here)
  out {"id": I, "started": true}      spare I has its call (or "gone": it had ended; the call
                                      never ran, so the app may run it elsewhere)
  out {"id": I, "code": C, "signal": S}   that process ended
A spare (the call's supervisor) starts its own session, connects to SOCKET once per stream
(stdin, stdout, stderr, the fd 3 result channel) and waits. The app meanwhile finds its pid,
tracks its group and puts it in its own pids cgroup: joining a cgroup costs the kernel an RCU
grace period (5-30 ms), which a spare pays before its call exists. The app then writes one byte
on the fd 3 stream ("bounded"): only after it does the spare, alone in new user and PID
namespaces, fork the call's init (pid 1 there), so the init is inside the cgroup too and its fork
is paid before the call exists as well. The go brings the call to the init, which forks the tool
process, which runs exactly what a cold run would run
(run_tool.py's main for a module function, a script as __main__, code read as from stdin). The
supervisor is a subreaper: whatever the tool starts stays below it, and when the tool ends it
kills all of it, as the end of a cold run's sandbox would, and ends with the tool's own status.
"""
import os
import sys

# The pipes to the app move out of the way: a call's process finds fds 0-3 free for its own
# streams, and sys.stdin/stdout/stderr stay as the interpreter made them (empty buffers).
REQUESTS = os.dup(0)
EVENTS = os.dup(1)
_null = os.open(os.devnull, os.O_RDWR)
os.dup2(_null, 0)
os.dup2(_null, 1)
os.close(_null)

# What a cold run of a script has loaded before the user's code, and what run_tool.py adds.
SITE_MODULES = set(sys.modules)
# A cold run imports run_tool.py as __main__, which writes no bytecode beside it: neither do we.
_dont_write_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
import run_tool  # noqa: E402  (sys.path[0] is this folder)
sys.dont_write_bytecode = _dont_write_bytecode
RUNNER_MODULES = set(sys.modules)

import ctypes  # noqa: E402
import fcntl  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import select  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402

# Warm dependency imports (preload.py): what the folder's tools import, once, before any fork.
PRELOAD = {'preloaded': [], 'leftOut': []}
PRELOADED_MODULES = set()
if '--preload' in sys.argv[2:]:
    sys.dont_write_bytecode = True  # as for run_tool above: nothing written beside our scripts
    import preload  # noqa: E402
    sys.dont_write_bytecode = _dont_write_bytecode
    PRELOAD, PRELOADED_MODULES = preload.start(REQUESTS, EVENTS, SITE_MODULES)

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
_libc = ctypes.CDLL(None, use_errno=True)


def prctl(option, value):
    _libc.prctl(option, value, 0, 0, 0)


def write_file(path, text):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def own_namespaces():
    """Moves this spare into a user and PID namespace of its own, so its call sees no other
    process (not the zygote, not a spare, not another call) and can trace or signal none of them.
    False when the kernel refuses (user namespaces off): the call then runs as before."""
    uid, gid = os.geteuid(), os.getegid()
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWPID) != 0:
        return False
    # The same ids inside; mapping uid 0 needs a capability the sandbox dropped, and then the
    # ids stay unmapped (the kernel's own ids, and so file access, are unchanged).
    try:
        write_file('/proc/self/uid_map', '%d %d 1' % (uid, uid))
        write_file('/proc/self/setgroups', 'deny')
        write_file('/proc/self/gid_map', '%d %d 1' % (gid, gid))
    except OSError:
        pass
    return True


def send(event):
    data = (json.dumps(event) + '\n').encode()
    while data:
        data = data[os.write(EVENTS, data):]


def children():
    """This process's children (zombies included), from /proc."""
    pid = os.getpid()
    try:
        with open('/proc/self/task/%d/children' % pid) as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        found = []
        for name in os.listdir('/proc'):
            if not name.isdigit():
                continue
            try:
                with open('/proc/%s/stat' % name) as f:
                    stat = f.read()
                if int(stat[stat.rindex(')') + 2:].split()[1]) == pid:
                    found.append(int(name))
            except (OSError, ValueError):
                pass
        return found


def kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


# ---- the zygote --------------------------------------------------------------------------

def tmp_mounts():
    """What the sandbox bound under its private /tmp (tool and working folders, our socket)."""
    found = set()
    with open('/proc/self/mountinfo') as f:
        for line in f:
            point = line.split(' ')[4]
            point = point.replace('\\040', ' ').replace('\\011', '\t').replace('\\012', '\n').replace('\\134', '\\')
            if point.startswith('/tmp/'):
                found.add(point)
    return found


def wipe(folder, keep):
    """Empties `folder` except the bound paths in `keep` and the folders that lead to them."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        if path in keep:
            continue
        if any(k.startswith(path + '/') for k in keep):
            wipe(path, keep)
            continue
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass


def serve(socket_path, private_tmp):
    # No process of this tree may be traced, nor its memory read or written, by a call (a call's
    # tool runs as the same user): non-dumpable before the first fork, inherited by every spare.
    prctl(PR_SET_DUMPABLE, 0)
    # Orphans of a call whose supervisor was killed come here (not to the sandbox's init) and are
    # killed at once; outside a sandbox the zygote dies with the app like the sandbox would.
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    calls = {}   # pid -> id, every forked supervisor (spare or running)
    spares = {}  # id -> (pid, write end of its pipe), forked but not yet given a call
    running = set()  # ids of spares that got their call
    send(dict(PRELOAD, ready=True, pid=os.getpid()))
    pending = b''
    while True:
        ready, _, _ = select.select([REQUESTS, wake_r], [], [])
        if wake_r in ready:
            try:
                while os.read(wake_r, 512):
                    pass
            except BlockingIOError:
                pass
            reap(calls, spares, running)
        if REQUESTS in ready:
            data = os.read(REQUESTS, 1 << 16)
            if not data:
                for pid in list(calls):
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except OSError:
                        pass
                os._exit(0)
            pending += data
            while b'\n' in pending:
                line, pending = pending.split(b'\n', 1)
                if not line.strip():
                    continue
                request = json.loads(line)
                if 'go' not in request:
                    prepare(request, socket_path, calls, spares, (wake_r, wake_w))
                    continue
                # A cold sandboxed run gets an empty /tmp; here the sandbox's /tmp lives on,
                # so it is emptied whenever no call is running (concurrent calls share it).
                if private_tmp is not None and not running:
                    wipe('/tmp', private_tmp)
                go(request, spares, running)


def reap(calls, spares, running):
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
        call = calls.pop(pid, None)
        if call is not None:
            running.discard(call)
            spare = spares.pop(call, None)
            if spare is not None:
                os.close(spare[1])
            code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
            sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
            send({'id': call, 'code': code, 'signal': sig})
    for pid in children():
        if pid not in calls:
            kill(pid)


def prepare(request, socket_path, calls, spares, wake):
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError as error:
        os.close(read_end)
        os.close(write_end)
        send({'id': request['id'], 'error': 'fork failed: %s' % error})
        return
    if pid == 0:
        try:
            # Nothing of the zygote's channels stays open in a call's process.
            os.close(write_end)
            for _, fd in spares.values():
                os.close(fd)
            supervise(request, socket_path, wake, read_end)
        finally:
            os._exit(70)
    os.close(read_end)
    calls[pid] = request['id']
    spares[request['id']] = (pid, write_end)
    send({'id': request['id'], 'pid': pid})


def go(request, spares, running):
    call = request['go']
    spare = spares.pop(call, None)
    if spare is None:
        send({'id': call, 'gone': True})  # it was reaped already
        return
    data = (json.dumps(request) + '\n').encode()
    try:
        while data:
            data = data[os.write(spare[1], data):]
    except OSError:
        # Its end of the pipe is closed: it died and is not reaped yet.
        os.close(spare[1])
        send({'id': call, 'gone': True})
        return
    os.close(spare[1])
    running.add(call)
    send({'id': call, 'started': True})


# ---- a call's supervisor ----------------------------------------------------------------

def supervise(request, socket_path, wake, calls_in):
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for fd in (REQUESTS, EVENTS) + wake:
        os.close(fd)
    os.setsid()
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    # A SIGTERM to the group is for the tool; this process stays to clean up after it.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    token = request['token'].encode()
    tags = ['0', '1', '2', '3']  # fd 3 is closed below when the call has no result channel
    moved = {}
    for tag in tags:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(socket_path)
        s.sendall(token + tag.encode())
        moved[tag] = s.detach()
    for tag, fd in list(moved.items()):
        # Above the target numbers first, so no stream overwrites another on its way.
        moved[tag] = high_fd(fd)
    calls_in = high_fd(calls_in)
    for tag, fd in moved.items():
        os.dup2(fd, int(tag))
        os.close(fd)
    isolated = own_namespaces()
    # Nothing is forked before the app has bounded this process (see the top of this file).
    if not os.read(3, 1):
        os._exit(0)
    if isolated:
        status = run_in_namespace(calls_in)
    else:
        status = run_and_wait(read_call(calls_in), None)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def read_call(calls_in):
    """Waits for the call. The pipe closing without one: the zygote ended or let this spare go."""
    pending = b''
    while b'\n' not in pending:
        data = os.read(calls_in, 1 << 16)
        if not data:
            os._exit(0)
        pending += data
    os.close(calls_in)
    request = json.loads(pending.split(b'\n', 1)[0])
    if not request.get('channel'):
        os.close(3)  # a cold run without a result channel has no fd 3
    return request


def run_in_namespace(calls_in):
    """The call's init (pid 1 of the spare's PID namespace, as bubblewrap's is for a cold run),
    forked before its call: it waits for the call, runs the tool as pid 2 and reports its status;
    when it ends the kernel ends the namespace."""
    status_r, status_w = (high_fd(fd) for fd in os.pipe())
    try:
        init = os.fork()
    except OSError as error:
        os.write(2, ('fork failed: %s: Resource temporarily unavailable\n' % error.strerror).encode())
        os._exit(1)
    if init == 0:
        os.close(status_r)
        status = run_and_wait(read_call(calls_in), status_w)
        # What the tool left behind ends with this process (the kernel ends a PID namespace
        # with its init); /proc here numbers processes as the sandbox does, not as we see them.
        os.write(status_w, str(status).encode())
        os._exit(0)
    os.close(status_w)
    os.close(calls_in)
    close_streams()
    _, status = os.waitpid(init, 0)
    data = b''
    while True:
        chunk = os.read(status_r, 64)
        if not chunk:
            break
        data += chunk
    return int(data) if data else status


def close_streams():
    for fd in range(4):
        try:
            os.close(fd)
        except OSError:
            pass


def high_fd(fd):
    """`fd` moved above the numbers a call's streams use (0-3)."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


def run_and_wait(request, status_w):
    """Forks the tool, waits for it, then ends whatever it left; returns its wait status.
    `status_w`: the init's report pipe when running as a PID namespace's init (else None)."""
    isolated = status_w is not None
    if request.get('dataLimit'):
        resource.setrlimit(resource.RLIMIT_DATA, (request['dataLimit'], request['dataLimit']))
    if request.get('nproc'):
        resource.setrlimit(resource.RLIMIT_NPROC, (request['nproc'], request['nproc']))
    try:
        tool = os.fork()
    except OSError as error:
        os.write(2, ('fork failed: %s: Resource temporarily unavailable\n' % error.strerror).encode())
        os._exit(1)
    if tool == 0:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if isolated:
            os.close(status_w)
            # Alone in its namespaces, the tool may be traced by its own children, as cold.
            prctl(PR_SET_DUMPABLE, 1)
        run_call(request)
    close_streams()
    status = 0
    while True:
        try:
            pid, st = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if pid == tool:
            status = st
            break
    if isolated:
        return status
    # The tool is done: nothing it started may outlive it (a cold run's sandbox ends the same way).
    while True:
        kids = children()
        if not kids:
            break
        for pid in kids:
            kill(pid)
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    return status


# ---- the tool process: what a cold run would run ---------------------------------------------

def run_call(request):
    try:
        os.environ.clear()
        os.environ.update(request['env'])
        try:
            os.chdir(request['cwd'])
        except OSError:
            os.chdir(request['fallbackCwd'])
        if request.get('pwd'):
            os.environ['PWD'] = os.getcwd()  # bubblewrap sets it after its --chdir
        kind = request['kind']
        keep = RUNNER_MODULES if kind == 'module' else SITE_MODULES
        if PRELOADED_MODULES and not preload.shadowed(preload.first_folder(request)):
            keep = keep | PRELOADED_MODULES
        for name in [n for n in sys.modules if n not in keep]:
            del sys.modules[name]
    except BaseException as error:
        os.write(2, ('tooldesk: the call could not be prepared: %s\n' % error).encode())
        os._exit(1)
    try:
        if kind == 'module':
            sys.argv = [run_tool.__file__, request['file'], request['function'], request['marker']]
            run_tool.main()
        else:
            run_main(kind, request)
        code = 0
    except SystemExit as error:
        code = exit_code(error)
    except BaseException as error:
        code = uncaught(error)
    finish(code)


def run_main(kind, request):
    """A script run as `python FILE`, or code run as `python -u -` (three-layer execution.py)."""
    main = type(sys)('__main__')
    if kind == 'script':
        path = request['file']
        sys.argv = [path]
        sys.path[0] = os.path.dirname(os.path.realpath(path))
        main.__file__ = path
        with open(path, 'rb') as f:
            source = f.read()
        filename = path
    else:
        sys.argv = ['-']
        sys.path[0] = ''
        source = request['code']
        filename = '<stdin>'
    main.__builtins__ = __builtins__
    main.__cached__ = None
    sys.modules['__main__'] = main
    code = compile(source, filename, 'exec')
    exec(code, main.__dict__)


def exit_code(error):
    code = error.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write('%s\n' % code)
    except Exception:
        pass
    return 1


def uncaught(error):
    """As the interpreter reports an uncaught exception (our own frame left out)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == uncaught.__code__.co_filename:
        tb = tb.tb_next
    try:
        sys.excepthook(type(error), error.with_traceback(tb), tb)  # it prints error.__traceback__
    except Exception:
        pass
    if isinstance(error, KeyboardInterrupt):
        flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return 1


def flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def finish(code):
    """The interpreter's own shutdown steps that a tool can observe, then exit."""
    threading = sys.modules.get('threading')
    if threading is not None:
        try:
            threading._shutdown()
        except Exception:
            pass
    try:
        import atexit
        atexit._run_exitfuncs()
    except Exception:
        pass
    flush()
    os._exit(code)


if __name__ == '__main__':
    serve(sys.argv[1], tmp_mounts() if '--private-tmp' in sys.argv[2:] else None)
