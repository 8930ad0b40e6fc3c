"""An OpenAI-compatible endpoint on loopback that answers every request after a set latency, however many are in
flight (asyncio: nothing is serialized): what a hosted judge API looks like to the jury, without a model."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

from aiohttp import web


class LatencyServer:
    """Replies `reply` to every chat or text completion after `latency_s`; records when each request arrived and
    the most requests it held at once."""

    def __init__(self, latency_s: float = 0.3, reply: str = "correct"):
        self.latency_s = latency_s
        self.reply = reply
        self.arrivals: list[float] = []  # time.monotonic() of each completion request
        self.peak_in_flight = 0
        self._in_flight = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def chat_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1/chat/completions"

    async def _complete(self, request: web.Request) -> web.Response:
        await request.read()
        self.arrivals.append(time.monotonic())
        self._in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
        try:
            await asyncio.sleep(self.latency_s)
        finally:
            self._in_flight -= 1
        chat = request.path.endswith("/chat/completions")
        choice = {"message": {"role": "assistant", "content": self.reply}} if chat else {"text": self.reply}
        return web.json_response(
            {
                "id": f"latency-{len(self.arrivals)}",
                "object": "chat.completion" if chat else "text_completion",
                "model": "latency",
                "choices": [{"index": 0, "finish_reason": "stop", **choice}],
                "usage": {"prompt_tokens": 0, "completion_tokens": 1, "total_tokens": 1},
            }
        )

    async def _models(self, _: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "latency", "object": "model"}]})

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._complete)
        app.router.add_post("/v1/completions", self._complete)
        app.router.add_get("/v1/models", self._models)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock, backlog=1024).start()

    def __enter__(self) -> LatencyServer:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(30)
        return self

    def __exit__(self, *exc) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
