MemcpyHtoD,0x1000,64
MemcpyDtoH,0xffffffffffffff00,4096
kernel-1.traceg
