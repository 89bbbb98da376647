"""The model of a module's code: names through imports, classes, objects, transforms, call targets."""
