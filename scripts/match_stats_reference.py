#!/usr/bin/env python3
"""Reference values for the unit tests of crates/loa-cli/src/matches/stats.rs and sprt.rs.

Elo, error, normalized Elo and LOS: the textbook formulas (math.erfc for the normal
distribution). LLR: the maximum likelihood distribution under each hypothesis is found by
solving the Lagrange (KKT) equations with Newton's method and a numerical Jacobian, walking
t from the observed value to the hypothesis -- a different algorithm from the fixed-point
iteration in sprt.rs. Plain Python 3, no packages.

    python3 scripts/match_stats_reference.py
"""
import math

Z = 1.959963984540054
C = 800 / math.log(10)

def elo(s):
    return -400 * math.log10(1 / s - 1)

def phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))

def penta_estimate(counts):
    a = [0, .25, .5, .75, 1]
    n = sum(counts)
    mu = sum(ai * c for ai, c in zip(a, counts)) / n
    var = sum(c * (ai - mu) ** 2 for ai, c in zip(a, counts)) / n
    se = math.sqrt(var / n)
    e = elo(mu)
    err = (elo(mu + Z * se) - elo(mu - Z * se)) / 2
    nelo = (mu - .5) / math.sqrt(2 * var) * C
    nerr = Z * se / math.sqrt(2 * var) * C
    los = phi((mu - .5) / se)
    return mu, var, e, err, nelo, nerr, los

def tri_estimate(w, d, l):
    a = [0, .5, 1]; counts = [l, d, w]
    n = sum(counts)
    mu = sum(ai * c for ai, c in zip(a, counts)) / n
    var = sum(c * (ai - mu) ** 2 for ai, c in zip(a, counts)) / n
    se = math.sqrt(var / n)
    return mu, elo(mu), (elo(mu + Z * se) - elo(mu - Z * se)) / 2, (mu - .5) / math.sqrt(var) * C, phi((mu - .5) / se)

def solve(A, b):
    n = len(b)
    M = [row[:] + [bb] for row, bb in zip(A, b)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(M[r][i]))
        M[i], M[p] = M[p], M[i]
        for r in range(n):
            if r != i:
                f = M[r][i] / M[i][i]
                for c in range(i, n + 1):
                    M[r][c] -= f * M[i][c]
    return [M[i][n] / M[i][i] for i in range(n)]

def constrained_mle(phat, a, t):
    k = len(a)
    def g(p):
        mu = sum(x * y for x, y in zip(a, p))
        var = sum(x * x * y for x, y in zip(a, p)) - mu * mu
        return mu - 0.5 - t_cur[0] * math.sqrt(var)
    def grad_g(p):
        mu = sum(x * y for x, y in zip(a, p))
        var = sum(x * x * y for x, y in zip(a, p)) - mu * mu
        s = math.sqrt(var)
        return [ai - t_cur[0] * (ai * ai - 2 * mu * ai) / (2 * s) for ai in a]
    def F(z):
        p, lam, nu = z[:k], z[k], z[k + 1]
        gg = grad_g(p)
        eqs = [phat[i] - p[i] * (lam + nu * gg[i]) for i in range(k)]
        eqs.append(sum(p) - 1)
        eqs.append(g(p))
        return eqs
    # continuation from the unconstrained MLE's own t to the target t
    mu = sum(x * y for x, y in zip(a, phat))
    var = sum(x * x * y for x, y in zip(a, phat)) - mu * mu
    t_hat = (mu - 0.5) / math.sqrt(var)
    t_cur = [t_hat]
    z = list(phat) + [1.0, 0.0]
    steps = 200
    for s in range(1, steps + 1):
        t_cur[0] = t_hat + (t - t_hat) * s / steps
        for _ in range(50):
            f = F(z)
            if max(abs(x) for x in f) < 1e-15:
                break
            J = []
            h = 1e-7
            for j in range(k + 2):
                zp = z[:]; zm = z[:]
                zp[j] += h; zm[j] -= h
                fp, fm = F(zp), F(zm)
                J.append([(fp[i] - fm[i]) / (2 * h) for i in range(k + 2)])
            Jt = [[J[j][i] for j in range(k + 2)] for i in range(k + 2)]
            dz = solve(Jt, [-x for x in f])
            z = [x + d for x, d in zip(z, dz)]
    return z[:k]

def llr_penta(counts, elo0, elo1):
    reg = [c if c > 0 else 1e-3 for c in counts]
    n = sum(reg)
    phat = [c / n for c in reg]
    a = [0, .25, .5, .75, 1]
    t0 = math.sqrt(2) * elo0 / C
    t1 = math.sqrt(2) * elo1 / C
    p0 = constrained_mle(phat, a, t0)
    p1 = constrained_mle(phat, a, t1)
    return n * sum(ph * (math.log(x1) - math.log(x0)) for ph, x0, x1 in zip(phat, p0, p1))

if __name__ == "__main__":
    for counts in ([10, 20, 30, 25, 15], [1, 3, 6, 4, 2]):
        names = ("score", "var", "elo", "error", "nelo", "nelo_error", "los")
        values = penta_estimate(counts)
        print("pentanomial", counts, ", ".join(f"{n} {v:.10f}" for n, v in zip(names, values)))
    names = ("score", "elo", "error", "nelo", "los")
    values = tri_estimate(40, 30, 30)
    print("trinomial W40 D30 L30", ", ".join(f"{n} {v:.10f}" for n, v in zip(names, values)))
    for counts, e0, e1 in (([10, 20, 30, 25, 15], 0, 5), ([1, 3, 6, 4, 2], 0, 5),
                           ([0, 0, 0, 0, 8], 0, 5), ([0, 0, 0, 0, 40], 0, 5),
                           ([39, 8843, 26675, 9240, 44], 0.5, 2.5), ([20, 10, 30, 10, 20], -3, 3),
                           ([3, 0, 5, 0, 1], 0, 10)):
        print("llr", counts, f"[{e0}, {e1}]", f"{llr_penta(counts, e0, e1):.10f}")
    print("bounds (alpha = beta = 0.05)", math.log(0.05 / 0.95), math.log(0.95 / 0.05))
