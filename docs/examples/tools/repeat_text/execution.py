text = "{text}"
print(" ".join([text] * {repeat}))
