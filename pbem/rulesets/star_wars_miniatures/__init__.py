"""Star Wars Miniatures Campaign System (issue 25, catalog prefix SWM)."""
