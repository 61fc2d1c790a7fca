"""A call of the zygote (zygote.py's docstring tells the protocol): the spare that supervises it
(its own session and namespaces, the call's streams from the app's socket, the bound before any
fork) and the tool process, which runs exactly what a cold run would run: run_tool.py's main for
a module function, a script as __main__, code read as from stdin.

zygote.py sets SITE_MODULES, RUNNER_MODULES, PRELOADED_MODULES, preload and run_tool before the first call: what a cold run
has loaded before the user's code (the interpreter's site, plus run_tool.py for a module), so a
call's process starts from exactly that."""
import builtins
import fcntl
import json
import os
import resource
import signal
import socket
import sys

import call_mounts
from zygote_os import PR_SET_CHILD_SUBREAPER, PR_SET_DUMPABLE, children, kill, own_namespaces, prctl

SITE_MODULES = None
RUNNER_MODULES = None
# The modules the fork-server preloaded (preload.py), kept for a call unless its folder shadows one.
PRELOADED_MODULES = set()
preload = None
run_tool = None
# Sandboxed: a call that cannot have its own /proc and /dev/shm does not run (set by zygote.serve).
STRICT = False


# ---- a call's supervisor ----------------------------------------------------------------

def supervise(request, socket_path, inherited, calls_in):
    """`inherited`: the zygote's own fds (its pipes to the app, its wake pipe), closed here."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for fd in inherited:
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
        request = read_call(calls_in)
        # After the call came: the fork-server has emptied /tmp for it by then.
        try:
            call_mounts.own_mounts(STRICT)
        except OSError as error:
            if STRICT:
                refuse('a /proc and /dev/shm of its own could not be mounted (%s)' % error)
        try:
            call_mounts.hide(request.get('hide') or {})
        except OSError as error:
            refuse('a secret file could not be hidden (%s)' % error)
        status = run_and_wait(request, status_w)
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


def refuse(why):
    """The call does not run: it could not be isolated as it must be."""
    os.write(2, ('tooldesk: the call was not run: %s\n' % why).encode())
    os._exit(1)


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
            # Its capabilities in the call's namespaces would let it unmount its /proc and masks.
            try:
                call_mounts.drop_caps()
            except OSError as error:
                refuse(str(error))
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
        sys.argv = [path] + [str(a) for a in request.get('args') or []]
        sys.path[0] = os.path.dirname(os.path.realpath(path))
        main.__file__ = path
        with open(path, 'rb') as f:
            source = f.read()
        filename = path
    else:
        # `python -I -u -`: nothing before the interpreter's own paths (never the working folder).
        sys.argv = ['-']
        source = request['code']
        filename = '<stdin>'
    main.__builtins__ = builtins  # the module, as in a cold run's __main__
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
