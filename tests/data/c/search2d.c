/* The flat position of the first negative element of a 6x6 matrix, or -1: a return inside nested loops. */
int search2d(const int M[6][6]) {
  for (int r = 0; r < 6; r++)
    for (int c = 0; c < 6; c++)
      if (M[r][c] < 0)
        return r * 6 + c;
  return -1;
}
