"""Facts the rules stand on, computed once per file.  No rule logic lives here."""
