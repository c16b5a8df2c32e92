// The library.
