"""What the zygote and its calls need of the kernel: prctl, a user and PID namespace of one's
own, the children of this process (from /proc), a kill that cannot fail. Shared by zygote.py
(the fork-server) and zygote_call.py (a call's supervisor and process); imports only the
standard library."""
import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
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
    """Moves this spare into user, PID, mount and IPC namespaces of its own, so its call sees no
    other process (not the zygote, not a spare, not another call), can trace or signal none of
    them, and shares no System V IPC and no mount with them (see call_mounts.py).
    False when the kernel refuses (user namespaces off): the call then runs as before."""
    uid, gid = os.geteuid(), os.getegid()
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC) != 0:
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
