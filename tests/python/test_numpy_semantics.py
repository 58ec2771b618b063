"""legato.numpy against NumPy itself on small arrays: the same answers for
every operation the seeds use, views that share storage, deferred scalars,
and errors that are Python exceptions naming the user's line."""
import inspect
import unittest

import numpy

import legato.numpy as np

N = 1000


def line_here():
    return inspect.currentframe().f_back.f_lineno


class NumpySemantics(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(7)
        self.x = rng.random(N)
        self.y = rng.random(N, dtype=np.float32).astype(np.float64)
        self.nx = numpy.asarray(self.x)
        self.ny = numpy.asarray(self.y)

    def same(self, ours, theirs):
        ours = numpy.asarray(ours)
        self.assertEqual(ours.dtype, numpy.asarray(theirs).dtype)
        self.assertEqual(ours.shape, numpy.asarray(theirs).shape)
        numpy.testing.assert_allclose(ours, theirs, rtol=1e-6)

    def test_arithmetic_and_scalars_broadcast(self):
        x, y, nx, ny = self.x, self.y, self.nx, self.ny
        self.same(x + y, nx + ny)
        self.same(x * y + 1.0, nx * ny + 1.0)
        self.same(2.0 - x, 2.0 - nx)
        self.same(x / 4, nx / 4)
        self.same(1 / (x + 1), 1 / (nx + 1))
        self.same(-x, -nx)
        self.same(abs(x - 0.5), abs(nx - 0.5))
        self.same(np.sqrt(x), numpy.sqrt(nx))
        f = x.astype(np.float32)
        self.assertEqual(f.dtype, numpy.float32)
        self.same(f * 2.0 + 1.0, nx.astype(numpy.float32) * 2.0 + 1.0)  # float32 stays

    def test_comparisons_masks_and_logic(self):
        x, y, nx, ny = self.x, self.y, self.nx, self.ny
        self.same((x < 0.25) & (y > 0.5), (nx < 0.25) & (ny > 0.5))
        self.same((x <= 0.5) | ~(y >= 0.5), (nx <= 0.5) | ~(ny >= 0.5))
        self.same(x == x, nx == nx)
        self.same(x != y, nx != ny)
        (idx,) = np.nonzero(x > 0.9)
        self.same(idx, numpy.nonzero(nx > 0.9)[0])
        self.assertEqual(idx.dtype, numpy.int64)
        self.same(np.where(x > 0.5, x, y), numpy.where(nx > 0.5, nx, ny))
        self.same(np.where(x > 0.5, 1.0, 0.0), numpy.where(nx > 0.5, 1.0, 0.0))

    def test_updates_in_place(self):
        z, nz = self.x.copy(), self.nx.copy()
        cond = (self.x < 0.25) & (self.y > 0.5)
        np.putmask(z, cond, self.x * self.y + 1.0)
        numpy.putmask(nz, (self.nx < 0.25) & (self.ny > 0.5), self.nx * self.ny + 1.0)
        self.same(z, nz)
        gt1 = z > 1.0
        z[gt1] += 2.0
        z[~gt1] -= 2.0
        ngt1 = nz > 1.0
        nz[ngt1] += 2.0
        nz[~ngt1] -= 2.0
        self.same(z, nz)
        out = np.empty_like(self.x)
        np.add(self.x, self.y, out=out)
        self.same(out, self.nx + self.ny)
        np.multiply(out, 3, out=out)
        self.same(out, (self.nx + self.ny) * 3)
        np.subtract(self.x, 1.0, out=out)
        self.same(out, self.nx - 1.0)
        w = self.x.copy()
        w += self.y
        w *= 2
        w /= 4
        w -= 1
        self.same(w, (self.nx + self.ny) * 2 / 4 - 1)

    def test_index_arrays_gather_and_scatter(self):
        z, nz = self.x + self.y, self.nx + self.ny
        cond_idx = np.nonzero((self.x < 0.25) & (self.y > 0.5))
        ncond = numpy.nonzero((self.nx < 0.25) & (self.ny > 0.5))
        alt, nalt = self.x * self.y + 1.0, self.nx * self.ny + 1.0
        self.same(alt[cond_idx], nalt[ncond])
        z[cond_idx] = alt[cond_idx]
        nz[ncond] = nalt[ncond]
        self.same(z, nz)
        m = z > 1.0
        z[m] = z[m] + 2.0
        nz[nz > 1.0] = nz[nz > 1.0] + 2.0
        self.same(z, nz)
        z[m] = 0.0
        nz[numpy.asarray(m)] = 0.0
        self.same(z, nz)

    def test_slices_are_views(self):
        z, nz = self.x.copy(), self.nx.copy()
        for s in range(0, N, 64):  # the last slice runs past the end, as NumPy allows
            sub, nsub = z[s:s + 64], nz[s:s + 64]
            gt = sub > 0.5
            sub[gt] = sub[gt] + 2.0
            nsub[nsub > 0.5] = nsub[nsub > 0.5] + 2.0
        self.same(z, nz)
        self.same(z[-10:], nz[-10:])
        self.assertEqual(float(z[3]), float(nz[3]))
        self.assertEqual(z[-1], nz[-1])
        z[5:8] = 7.0
        nz[5:8] = 7.0
        self.same(z, nz)
        # Augmented assignment to a slice updates it once, in place.
        z[10:N] -= z[0:N - 10]
        nz[10:N] -= nz[0:N - 10]
        z[0:N - 1] += 1.0
        nz[0:N - 1] += 1.0
        self.same(z, nz)
        v = z[2:6]
        z[2:6] = v  # a view assigned to itself
        self.same(z, nz)

    def test_two_dimensional_views(self):
        a, na = np.ones((6, 5)), numpy.ones((6, 5))
        a[1, :] = 5.0
        na[1, :] = 5.0
        a[:, 2] = np.arange(6).astype(np.float64)
        na[:, 2] = numpy.arange(6).astype(numpy.float64)
        a[2:4, 1:3] += 10.0
        na[2:4, 1:3] += 10.0
        self.same(a, na)
        self.same(a[3], na[3])
        self.same(a[:, 2], na[:, 2])
        self.same(a[1:5, 0:2], na[1:5, 0:2])
        self.assertEqual(a[2, 1], na[2, 1])
        # Augmented assignment to a column (which a read copies) writes back.
        a[:, 3] += 2.5
        na[:, 3] += 2.5
        a[1:4, 0] *= 3.0
        na[1:4, 0] *= 3.0
        a[:, -1] -= a[:, 2]
        na[:, -1] -= na[:, 2]
        self.same(a, na)
        # out= a column cannot write through: refused, never silently lost.
        with self.assertRaisesRegex(NotImplementedError, "out= a column"):
            np.add(a[:, 1], 1.0, out=a[:, 1])
        self.same(a, na)
        v = numpy.arange(5).astype(numpy.float64)
        self.same(a @ np.arange(5).astype(np.float64), na @ v)
        self.same(np.dot(a, np.arange(5).astype(np.float64)), na.dot(v))

    def test_arrays_from_host_data(self):
        self.same(np.array([1.5, 2.5, -3.0]), numpy.array([1.5, 2.5, -3.0]))
        self.same(np.array([[1, 2], [3, 4]]), numpy.array([[1, 2], [3, 4]]))
        self.same(np.asarray(numpy.arange(10, dtype=numpy.float32)),
                  numpy.arange(10, dtype=numpy.float32))
        self.same(np.array([True, False, True]), numpy.array([True, False, True]))
        self.same(np.array([1, 2, 3], dtype=np.float64) * 2, numpy.array([2.0, 4.0, 6.0]))
        a = np.array([1.0, 2.0])
        self.assertIs(np.asarray(a), a)
        b = np.array(a)
        b += 1.0
        self.same(a, numpy.array([1.0, 2.0]))  # np.array copies
        self.same(self.x + np.asarray(self.nx), self.nx * 2)

    def test_allclose(self):
        self.assertTrue(np.allclose(self.x, self.x + 1e-9))
        self.assertFalse(np.allclose(self.x, self.x + 1e-3))
        self.assertEqual(np.allclose(self.x, self.y), numpy.allclose(self.nx, self.ny))

    def test_constructors_and_types(self):
        self.same(np.zeros(7), numpy.zeros(7))
        self.same(np.ones((2, 3), dtype=np.float32), numpy.ones((2, 3), dtype=numpy.float32))
        self.same(np.full(4, 2.5), numpy.full(4, 2.5))
        self.same(np.full((2, 2), 3, dtype=np.int64), numpy.full((2, 2), 3, dtype=numpy.int64))
        self.same(np.arange(9), numpy.arange(9))
        self.same(np.eye(3), numpy.eye(3))
        self.same(np.zeros(5, dtype=bool), numpy.zeros(5, dtype=bool))
        self.same(np.arange(6).astype(np.float32) / 2, numpy.arange(6).astype(numpy.float32) / 2)
        self.assertEqual(np.zeros((3, 4)).shape, (3, 4))
        self.assertEqual(np.zeros(3).ndim, 1)
        self.assertEqual(len(np.zeros(3)), 3)
        self.assertEqual(np.arange(5).tolist(), [0, 1, 2, 3, 4])
        self.assertEqual(repr(np.arange(3)), repr(numpy.arange(3)))

    def test_reductions_are_deferred_scalars(self):
        s = self.x.sum()
        self.assertAlmostEqual(float(s), float(self.nx.sum()), places=6)
        self.assertAlmostEqual(float(s / self.y.sum()), float(self.nx.sum() / self.ny.sum()), 6)
        self.assertAlmostEqual(float(np.dot(self.x, self.y)), float(self.nx.dot(self.ny)), 6)
        self.assertAlmostEqual(self.x.max().item(), float(self.nx.max()))
        self.assertAlmostEqual(self.x.min().item(), float(self.nx.min()))
        self.assertAlmostEqual(float(self.x.mean()), float(self.nx.mean()), 6)
        self.assertIsInstance(np.arange(4).sum().item(), int)
        self.assertEqual(np.arange(4).sum(), 6)
        self.assertTrue(self.x.sum() > 0)
        self.same(self.x * self.x.sum(), self.nx * self.nx.sum())  # a scalar not yet known

    def test_errors_are_python_exceptions_naming_the_line(self):
        a, b = np.zeros(10), np.zeros(11)
        with self.assertRaises(ValueError) as e:
            a + b
        line = line_here() - 1
        self.assertIn(f"test_numpy_semantics.py:{line}: ", str(e.exception))
        self.assertIn("could not be broadcast together with shapes (10,) (11,)", str(e.exception))
        with self.assertRaises(IndexError):
            a[10]
        with self.assertRaises(IndexError):
            a[np.zeros(3)]  # float indices
        with self.assertRaises(NotImplementedError) as e:
            a[::2]
        self.assertIn("slices with a step", str(e.exception))
        with self.assertRaises(NotImplementedError):
            np.asarray(numpy.zeros((2, 2, 2)))
        with self.assertRaises(NotImplementedError):
            np.array([1, 2], dtype=numpy.int32)
        with self.assertRaises(NotImplementedError):
            np.zeros((2, 2, 2))
        with self.assertRaises(NotImplementedError):
            a.sum(axis=0)
        with self.assertRaises(NotImplementedError):
            np.zeros(3, dtype=numpy.complex64)
        with self.assertRaises(AttributeError) as e:
            np.fft
        self.assertIn("legato.numpy does not support fft", str(e.exception))
        with self.assertRaises(TypeError):
            a + numpy.zeros(10)
        with self.assertRaises(ValueError):
            bool(a)


if __name__ == "__main__":
    unittest.main()
