#!/usr/bin/env python3
"""A Swiss played by bots through the API, end to end.

Starts `loa serve` on a free port with a fresh database, signs up N bot accounts with
API tokens, runs a `loa bot` for each (its engine `loa engine` at a fixed depth), makes a
Swiss of R rounds that they all join, starts it and waits for it to finish. Then it
checks the server's standings against its own count from the pairings (points,
Sonneborn-Berger, Buchholz, the order), that nobody met twice and nobody had two byes,
and prints how long each round took and how long the server took to pair it.

    scripts/swiss-bots.py [--players 64] [--rounds 7] [--depth 1] [--loa target/release/loa]
"""

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Api:
    def __init__(self, base):
        self.base = base

    def call(self, method, path, body=None, cookie=None, token=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        request.add_header("origin", self.base)
        if cookie:
            request.add_header("cookie", cookie)
        if token:
            request.add_header("authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                text = answer.read().decode()
                return answer.status, json.loads(text) if text else None, answer.headers
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read().decode() or "null"), e.headers

    def ok(self, method, path, body=None, cookie=None, token=None):
        status, answer, headers = self.call(method, path, body, cookie, token)
        if status >= 300:
            sys.exit(f"{method} {path}: {status} {answer}")
        return answer, headers


def sign_up(api, name):
    _, headers = api.ok("POST", "/api/accounts", {"name": name, "password": "a long password"})
    return headers["set-cookie"].split(";")[0]


def expected_standings(pairings, names):
    """Points, Sonneborn-Berger and Buchholz counted from the pairings."""
    points = {n: 0.0 for n in names}
    games = []
    for p in pairings:
        if "bye" in p:
            points[p["bye"]] += p["points"]
            continue
        black, white, result = p["black"], p["white"], p["result"]
        if result is None:
            continue
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        points[black] += score
        points[white] += 1 - score
        games.append((black, white, score))
    sb = {n: 0.0 for n in names}
    buchholz = {n: 0.0 for n in names}
    for black, white, score in games:
        for player, other, mine in ((black, white, score), (white, black, 1 - score)):
            buchholz[player] += points[other]
            sb[player] += mine * points[other]
    return points, sb, buchholz


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=2.0, help="each player's clock")
    parser.add_argument("--loa", default="target/release/loa")
    args = parser.parse_args()
    loa = os.path.abspath(args.loa)
    folder = tempfile.mkdtemp(prefix="swiss-bots-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(folder, "serve.log"), "w")
    server = subprocess.Popen(
        [loa, "serve", "--port", str(port), "--db", os.path.join(folder, "games.db")],
        stdout=log, stderr=log, env={**os.environ, "RUST_LOG": "loa_web=info"})
    bots = []
    try:
        api = Api(base)
        for _ in range(100):
            try:
                api.call("GET", "/api/meta")
                break
            except OSError:
                time.sleep(0.1)
        organizer = sign_up(api, "organizer")
        tokens = {}
        began = time.time()
        for i in range(args.players):
            name = f"bot{i + 1:02}"
            cookie = sign_up(api, name)
            token, _ = api.ok("POST", "/api/tokens", {"label": "bot"}, cookie=cookie)
            api.ok("POST", "/api/me/bot", cookie=cookie)
            tokens[name] = token["token"]
        print(f"{args.players} bot accounts made in {time.time() - began:.1f} s")
        for name, token in tokens.items():
            bot_log = open(os.path.join(folder, f"{name}.log"), "w")
            bots.append(subprocess.Popen(
                [loa, "bot", "--server", base, "--max-games", "2",
                 "--engine", f"cmd={loa}", "arg=engine", f"depth={args.depth}"],
                stdout=bot_log, stderr=bot_log, env={**os.environ, "LOA_TOKEN": token}))
        made, _ = api.ok("POST", "/api/tournaments", {
            "name": f"{args.players}-bot Swiss", "format": "swiss", "rounds": args.rounds,
            "clock": {"kind": "live", "initial_s": int(args.minutes * 60), "increment_s": 1},
            "rated": True,
        }, cookie=organizer)
        tid = made["id"]
        for token in tokens.values():
            api.ok("POST", f"/api/tournaments/{tid}/join", token=token)
        started = time.time()
        api.ok("POST", f"/api/tournaments/{tid}/start", cookie=organizer)
        round_began = {1: started}
        t = None
        while True:
            t, _ = api.ok("GET", f"/api/tournaments/{tid}")
            if t["round"] not in round_began:
                round_began[t["round"]] = time.time()
                print(f"round {t['round'] - 1} over after {round_began[t['round']] - round_began[t['round'] - 1]:.0f} s")
            if t["status"] == "finished":
                break
            if time.time() - started > 3600:
                sys.exit("the tournament did not finish within an hour")
            time.sleep(1)
        print(f"round {t['round']} over; the tournament finished {time.time() - started:.0f} s after its start")
        names = list(tokens)
        pairings = t["pairings"]
        met, byes, forfeits = set(), {}, 0
        for p in pairings:
            if "bye" in p:
                byes[p["bye"]] = byes.get(p["bye"], 0) + 1
                continue
            pair = frozenset((p["black"], p["white"]))
            assert pair not in met, f"{sorted(pair)} met twice"
            met.add(pair)
            assert p["result"] is not None, f"unfinished game {p}"
            forfeits += bool(p.get("forfeit"))
        assert all(n <= 1 for n in byes.values()), f"two byes: {byes}"
        points, sb, buchholz = expected_standings(pairings, names)
        standings = t["standings"]
        for s in standings:
            n = s["name"]
            assert s["points"] == points[n], (n, s["points"], points[n])
            assert abs(s["sonneborn_berger"] - sb[n]) < 1e-9, (n, s["sonneborn_berger"], sb[n])
            assert abs(s["buchholz"] - buchholz[n]) < 1e-9, (n, s["buchholz"], buchholz[n])
        keys = [(s["points"], s["sonneborn_berger"], s["buchholz"]) for s in standings]
        assert keys == sorted(keys, reverse=True), "standings out of order"
        print(f"standings checked: {len(standings)} players, {len(met)} games "
              f"({forfeits} forfeits), {sum(byes.values())} byes, no rematch; "
              f"winner {standings[0]['name']} with {standings[0]['points']} points")
        log.flush()
        times = [float(m) for m in re.findall(r"paired in ([0-9.]+) ms", open(log.name).read())]
        writes = [float(m) for m in re.findall(r"games made in ([0-9.]+) ms", open(log.name).read())]
        if times:
            print(f"pairing a round: {', '.join(f'{x:.1f}' for x in times)} ms "
                  f"(max {max(times):.1f}); writing its boards and making its games: "
                  f"max {max(writes):.0f} ms")
    finally:
        for bot in bots:
            bot.terminate()
        for bot in bots:
            try:
                bot.wait(timeout=10)
            except subprocess.TimeoutExpired:
                bot.kill()
        server.terminate()
        server.wait()
        print(f"logs in {folder}")


if __name__ == "__main__":
    main()
