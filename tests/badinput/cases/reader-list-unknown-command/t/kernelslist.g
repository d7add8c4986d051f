MemcpyHtoD,0x100,4
Memset,0x0,4
kernel-1.traceg
