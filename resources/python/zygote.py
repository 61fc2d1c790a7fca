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

# Started as the cold run would be: with -I its own folder is not on sys.path by itself.
HERE = os.path.dirname(os.path.abspath(__file__))
_here_added = HERE not in sys.path
if _here_added:
    sys.path.insert(0, HERE)

# What a cold run of a script has loaded before the user's code, and what run_tool.py adds.
SITE_MODULES = set(sys.modules)
# A cold run imports run_tool.py as __main__, which writes no bytecode beside it: neither do we.
_dont_write_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
import run_tool  # noqa: E402  (beside this file)
sys.dont_write_bytecode = _dont_write_bytecode
RUNNER_MODULES = set(sys.modules)

import json  # noqa: E402
import select  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402

# Our own helpers are imported without bytecode too, after the snapshots above: a call's process
# drops them from sys.modules with the rest of what a cold run would not have loaded.
sys.dont_write_bytecode = True
import zygote_call  # noqa: E402
from zygote_os import PR_SET_CHILD_SUBREAPER, PR_SET_DUMPABLE, PR_SET_PDEATHSIG, children, kill, own_namespaces, prctl  # noqa: E402
import call_mounts  # noqa: E402
sys.dont_write_bytecode = _dont_write_bytecode

if '--private-tmp' in sys.argv[2:]:
    # As root the sandbox kept two capabilities for this (call_mounts.py): gone before any
    # dependency is imported below.
    try:
        call_mounts.lift_proc_covers()
    except OSError as error:
        os.write(2, ('tooldesk: %s\n' % error).encode())
        os._exit(1)

# Warm dependency imports (preload.py): what the folder's tools import, once, before any fork.
PRELOAD = {'preloaded': [], 'leftOut': []}
PRELOADED_MODULES = set()
if '--preload' in sys.argv[2:]:
    sys.dont_write_bytecode = True  # as for run_tool above: nothing written beside our scripts
    import preload  # noqa: E402
    sys.dont_write_bytecode = _dont_write_bytecode
if _here_added:
    sys.path.remove(HERE)
if '--preload' in sys.argv[2:]:
    PRELOAD, PRELOADED_MODULES = preload.start(REQUESTS, EVENTS, SITE_MODULES)
    zygote_call.preload = preload

zygote_call.SITE_MODULES = SITE_MODULES
zygote_call.RUNNER_MODULES = RUNNER_MODULES
zygote_call.PRELOADED_MODULES = PRELOADED_MODULES
zygote_call.run_tool = run_tool


def send(event):
    data = (json.dumps(event) + '\n').encode()
    while data:
        data = data[os.write(EVENTS, data):]



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
    # Sandboxed: a call that cannot have its own /proc and /dev/shm does not run (zygote_call.STRICT).
    zygote_call.STRICT = private_tmp is not None
    if zygote_call.STRICT:
        # Sandboxed: every call must get namespaces and mounts of its own, or none runs here
        # (the app then runs them cold, each in a sandbox of its own).
        try:
            call_mounts.lift_proc_covers()
            why = call_mounts.probe(own_namespaces, True)
        except OSError as error:
            why = str(error)
        if why:
            os.write(2, ('tooldesk: warm calls need namespaces of their own: %s\n' % why).encode())
            os._exit(1)
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
            zygote_call.supervise(request, socket_path, (REQUESTS, EVENTS) + wake, read_end)
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


if __name__ == '__main__':
    serve(sys.argv[1], tmp_mounts() if '--private-tmp' in sys.argv[2:] else None)
