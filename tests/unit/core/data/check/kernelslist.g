MemcpyHtoD,0x10000,4096
MemcpyHtoD,0x7f4d00000000,8192
kernel-1.traceg
kernel-2.traceg
kernel-3.traceg
kernel-4.traceg
