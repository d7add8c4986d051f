MemcpyHtoD,0x00007f0000000000,32768
kernel-1.traceg
