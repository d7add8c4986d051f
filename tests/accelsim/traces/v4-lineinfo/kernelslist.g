MemcpyHtoD,0x7f0000002000,8192
kernel-1.traceg
