/* One step of a 7-point stencil on a 3-D grid; the boundary is copied; returns the interior's sum. */
float heat3d(const float T[4][5][6], float U[4][5][6]) {
  float sum = 0.0f;
  for (int z = 0; z < 4; z++)
    for (int y = 0; y < 5; y++)
      for (int x = 0; x < 6; x++) {
        if (z == 0 || z == 3 || y == 0 || y == 4 || x == 0 || x == 5) {
          U[z][y][x] = T[z][y][x];
          continue;
        }
        float c = T[z][y][x];
        float nb = T[z - 1][y][x] + T[z + 1][y][x] + T[z][y - 1][x] + T[z][y + 1][x] + T[z][y][x - 1] + T[z][y][x + 1];
        U[z][y][x] = c + 0.125f * (nb - 6.0f * c);
        sum += U[z][y][x];
      }
  return sum;
}
