MemcpyHtoD,0x100,-4
