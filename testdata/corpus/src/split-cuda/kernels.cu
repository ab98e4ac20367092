__global__ void nothing() {}
