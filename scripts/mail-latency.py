#!/usr/bin/env python3
"""Correspondence by e-mail, measured end to end against a real SMTP server.

Runs an aiosmtpd server in this process as the site's mail exchanger (it notes when each
e-mail arrives), starts `loa serve --smtp ... --mail-in ...` on a fresh database, signs
up pairs of players with verified addresses, and plays correspondence games between
them through the API. It measures:

- the move's acknowledgement (the API's answer), with mail and, on a second server
  without --smtp, without it: mail must never slow a move;
- the time from a move's answer to the opponent's your-move e-mail arriving;
- the time from a reply sent to --mail-in until the move is in the game.

    scripts/mail-latency.py [--pairs 20] [--moves 10] [--replies 40] [--loa target/release/loa]

Needs aiosmtpd (python3 -m pip install aiosmtpd).
"""

import argparse
import json
import re
import smtplib
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

from aiosmtpd.controller import Controller


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def summary(values):
    return (f"n={len(values)} p50={percentile(values, 50) * 1000:.1f} ms "
            f"p99={percentile(values, 99) * 1000:.1f} ms max={max(values) * 1000:.1f} ms")


class Exchanger:
    """Keeps each e-mail with the moment it arrived."""

    def __init__(self):
        self.mails = []
        self.arrived = threading.Condition()

    async def handle_DATA(self, server, session, envelope):
        text = envelope.content.decode("utf-8", "replace")
        with self.arrived:
            self.mails.append((time.monotonic(), envelope.rcpt_tos[0], text))
            self.arrived.notify_all()
        return "250 OK"

    def wait(self, to, contains, limit=30):
        """The first e-mail to `to` whose text holds `contains`, taken out."""
        deadline = time.monotonic() + limit
        with self.arrived:
            while True:
                for i, (at, rcpt, text) in enumerate(self.mails):
                    if rcpt == to and contains in text:
                        del self.mails[i]
                        return at, text
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no e-mail to {to} holding {contains!r}")
                self.arrived.wait(left)


class Api:
    def __init__(self, base):
        self.base = base

    def call(self, method, path, body=None, cookie=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        if cookie:
            request.add_header("cookie", cookie)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                cookie_line = answer.headers.get("set-cookie")
                return json.loads(answer.read() or b"null"), cookie_line
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} {path}: {error.code} {error.read()!r}")


def start_server(loa, folder, extra):
    port = free_port()
    process = subprocess.Popen(
        [loa, "serve", "--port", str(port), "--db", f"{folder}/games.db", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, Api(f"http://127.0.0.1:{port}")
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("loa serve did not start")


def sign_up(api, name, email):
    body = {"name": name, "password": "a long password"}
    if email:
        body["email"] = email
    _, cookie = api.call("POST", "/api/accounts", body)
    return cookie.split(";")[0]


def pair(api, black, white, days=3):
    seek = {"variant": "standard", "rules": "draw", "rated": False, "color": "black",
            "clock": {"kind": "correspondence", "days": days}}
    made, _ = api.call("POST", "/api/seeks", seek, black)
    taken, _ = api.call("POST", f"/api/seeks/{made['id']}/accept", None, white)
    return taken["game"]


def play_moves(api, games, moves, on_move):
    """Plays `moves` moves in each game (the first legal move), noting each answer."""
    acks = []
    for _ in range(moves):
        for game_id, cookies in games:
            game, _ = api.call("GET", f"/api/games/{game_id}")
            if game["result"] is not None:
                continue
            side = game["position"]["to_move"]
            mover = cookies[0] if side == "black" else cookies[1]
            mv = game["position"]["moves"][0]["text"]
            start = time.monotonic()
            api.call("POST", f"/api/games/{game_id}/moves", {"move": mv, "ply": game["ply"]}, mover)
            answered = time.monotonic()
            acks.append(answered - start)
            on_move(game_id, side, game["ply"] + 1, answered)
    return acks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--replies", type=int, default=40)
    parser.add_argument("--loa", default="target/release/loa")
    args = parser.parse_args()

    exchanger = Exchanger()
    mx_port = free_port()
    controller = Controller(exchanger, hostname="127.0.0.1", port=mx_port)
    controller.start()
    mail_in = free_port()
    with tempfile.TemporaryDirectory() as with_mail, tempfile.TemporaryDirectory() as without:
        server, api = start_server(args.loa, with_mail, [
            "--smtp", f"smtp://127.0.0.1:{mx_port}", "--public-url", "http://loa.test",
            "--mail-in", f"127.0.0.1:{mail_in}"])
        quiet, quiet_api = start_server(args.loa, without, [])
        try:
            players = []
            for i in range(args.pairs * 2):
                email = f"p{i}@example.org"
                cookie = sign_up(api, f"p{i}", email)
                _, text = exchanger.wait(email, "/mail/verify/")
                link = re.search(r"http://loa\.test(/mail/verify/\S+)", text).group(1)
                try:
                    api.call("GET", link)
                except (RuntimeError, json.JSONDecodeError):
                    pass  # the redirect's page is HTML
                players.append((cookie, email))
            games = []
            for i in range(args.pairs):
                (black, black_mail), (white, white_mail) = players[2 * i], players[2 * i + 1]
                game_id = pair(api, black, white)
                exchanger.wait(black_mail, f"/game/{game_id}")
                games.append((game_id, (black, white), (black_mail, white_mail)))

            # Moves with mail: each move's answer, then the opponent's e-mail.
            emails = {g[0]: g[2] for g in games}
            delays = []
            pending = []

            def noted(game_id, side, ply, answered):
                to = emails[game_id][1] if side == "black" else emails[game_id][0]
                pending.append((to, game_id, answered))

            acks_mail = play_moves(api, [(g[0], g[1]) for g in games], args.moves, noted)
            reply_addresses = []
            for to, game_id, answered in pending:
                at, text = exchanger.wait(to, f"/game/{game_id}")
                delays.append(at - answered)
                reply_addresses.append((game_id, text))

            # Moves by reply: the latest e-mail of each game holds its live address.
            latest = {}
            for game_id, text in reply_addresses:
                latest[game_id] = text
            reply_times = []
            for game_id, text in list(latest.items())[: args.replies]:
                address = re.search(r"^Reply-To: (\S+)", text, re.M).group(1)
                game, _ = api.call("GET", f"/api/games/{game_id}")
                mv = game["position"]["moves"][0]["text"]
                start = time.monotonic()
                with smtplib.SMTP("127.0.0.1", mail_in, timeout=10) as smtp:
                    smtp.sendmail("player@example.org", [address],
                                  f"To: {address}\r\nSubject: Re\r\n\r\n{mv}\r\n".encode())
                while api.call("GET", f"/api/games/{game_id}")[0]["ply"] == game["ply"]:
                    time.sleep(0.005)
                reply_times.append(time.monotonic() - start)

            # The same moves on a server that sends no mail.
            quiet_games = []
            for i in range(args.pairs):
                black = sign_up(quiet_api, f"q{2 * i}", None)
                white = sign_up(quiet_api, f"q{2 * i + 1}", None)
                quiet_games.append((pair(quiet_api, black, white), (black, white)))
            acks_quiet = play_moves(quiet_api, quiet_games, args.moves, lambda *_: None)

            print(f"{args.pairs} correspondence games, {args.moves} rounds of moves")
            print(f"move answer, with mail:      {summary(acks_mail)}")
            print(f"move answer, without mail:   {summary(acks_quiet)}")
            print(f"move to its e-mail arriving: {summary(delays)}")
            print(f"reply to its move played:    {summary(reply_times)}")
        finally:
            for process in (server, quiet):
                process.terminate()
                process.wait()
            controller.stop()


if __name__ == "__main__":
    main()
