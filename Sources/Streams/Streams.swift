// Operators live in their own files.
