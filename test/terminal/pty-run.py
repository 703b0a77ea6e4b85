#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal with a real window size and types keys into it.

Usage: pty-run.py COLS ROWS -- COMMAND...   (steps as JSON on stdin: [[wait_for_text_or_ms, keys], ...])
Prints one JSON document: {"code": exit code (128+signal when killed), "output": what the terminal showed}.
A step waits until its text has appeared (or for its milliseconds), then types its keys.
"""
import fcntl, json, os, pty, select, signal, struct, sys, termios, time

cols, rows = int(sys.argv[1]), int(sys.argv[2])
command = sys.argv[sys.argv.index("--") + 1:]
steps = json.loads(sys.stdin.read() or "[]")
deadline = time.time() + float(os.environ.get("PTY_TIMEOUT", "20"))

pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.execvp(command[0], command)

output = b""
code = None
def pump(timeout):
    global output
    r, _, _ = select.select([fd], [], [], timeout)
    if r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        output += data
    return True

for wait, keys in steps:
    started = time.time()
    while time.time() < deadline:
        if isinstance(wait, str) and wait.encode() in output:
            break
        if isinstance(wait, (int, float)) and time.time() - started >= wait / 1000:
            break
        if not pump(0.02):
            break
    os.write(fd, keys.encode())

while time.time() < deadline:
    open_ = pump(0.05)
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        while pump(0.05):
            pass
        code = os.waitstatus_to_exitcode(status)
        break
    if not open_:
        time.sleep(0.02)
if code is None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    code = -1
elif code < 0:
    code = 128 - code
print(json.dumps({"code": code, "output": output.decode("utf-8", "replace")}))
