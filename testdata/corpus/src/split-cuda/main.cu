// Calls a kernel compiled in another file: needs separate compilation.
int main() { return 0; }
