// The share command entry point (wiring only).
print("share: not yet built")
