"""Group change lines under Added / Fixed / Changed, from a file argument or stdin."""
import sys

KINDS = {"add": "Added", "new": "Added", "fix": "Fixed", "bug": "Fixed"}

lines = open(sys.argv[1]).read().splitlines() if len(sys.argv) > 1 else sys.stdin.read().splitlines()
groups = {"Added": [], "Fixed": [], "Changed": []}
for line in (l.strip() for l in lines):
    if not line:
        continue
    first = line.split()[0].lower().rstrip(":")
    groups[next((v for k, v in KINDS.items() if first.startswith(k)), "Changed")].append(line)
for title, items in groups.items():
    if items:
        print(f"**{title}**")
        print("\n".join(f"- {item}" for item in items))
