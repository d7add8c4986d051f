/* CSV output (RFC 4180 quoting), shared by the stats file and `mgtlm compare`. */
#ifndef MGTLM_CSV_H
#define MGTLM_CSV_H

#include <stdio.h>

/* Writes s as one CSV field: as it is, or in double quotes (inner quotes doubled) when
 * it holds a comma, a quote, a carriage return or a newline. */
void csv_field(FILE *f, const char *s);

#endif
