// The activity-broker daemon entry point (wiring only).
print("activity-broker: not yet built")
