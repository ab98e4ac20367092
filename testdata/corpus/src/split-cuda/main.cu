// A program of two CUDA sources, linked into one executable.
int main() { return 0; }
