import json
import sys

args = json.load(sys.stdin)
print(json.dumps({"greeting": f"Hello, {args['name']}!"}))
