"""Host mode: what names and expressions hold where code runs eagerly."""
