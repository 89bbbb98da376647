"""The one walk over a module: scopes, bindings, and small questions about syntax nodes."""
