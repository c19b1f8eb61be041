"""The process that hands replay files to ms_toollib, one at a time, and answers in JSON.

ms_toollib (the community's replay library, in Rust) ends the whole process on many
malformed files instead of raising, so it never runs inside the caller:
`minestats.io.replays` starts this module as a child process (``python -m
minestats.io.replay_worker``), writes one request a line, ``{"format": "evf",
"data": BASE64}``, and reads one answer a line. A file ms_toollib cannot read ends
this process (the reader says so and starts another) or answers ``{"ok": false,
"error": ...}``. A file it reads answers with plain data only: the header, the board
(numbers, -1 a mine, rows of cells) and every mouse event that changed the board,
``[seconds, button, x, y, changes]`` with ``x``, ``y`` in pixels and ``changes`` the
``[row, column, value]`` it left (ms_toollib's codes: 0-8 open, 10 hidden, 11 flag,
12 question mark, 14-16 mines shown at the end). The answer is checked by the reader,
never trusted. The worker imports nothing of minestats and holds its memory to
`MEMORY_BYTES`.
"""

import base64
import json
import sys

__all__ = ["MEMORY_BYTES", "VIDEO_CLASSES", "answer", "main"]

MEMORY_BYTES = 2 * 2**30
"""The address space the worker may take (2 GiB): a file that asks for more ends it."""

VIDEO_CLASSES = {"avf": "AvfVideo", "evf": "EvfVideo", "mvf": "MvfVideo", "rmv": "RmvVideo"}
"""ms_toollib's reader of each format, by the file's suffix."""

HIDDEN = 10
"""ms_toollib's code of a hidden cell."""


def _changed_events(video, height: int, width: int) -> list:
    """Return the mouse events that changed the board, with the cells each changed."""
    shown = [[HIDDEN] * width for _ in range(height)]
    events = []
    for event in video.events:
        if not event.event.is_mouse():
            continue
        mouse = event.event.unwrap_mouse()
        if mouse.mouse == "mv":  # a move changes nothing
            continue
        after = event.next_game_board.game_board
        changes = [[row, column, after[row][column]] for row in range(height)
                   for column in range(width) if after[row][column] != shown[row][column]]
        if changes:
            events.append([event.time, mouse.mouse, mouse.x, mouse.y, changes])
            shown = after
    return events


def answer(request: dict) -> dict:
    """Read one replay with ms_toollib; return its header, board and changing events."""
    import ms_toollib

    video = getattr(ms_toollib, VIDEO_CLASSES[request["format"]])(
        file_name="replay", raw_data=list(base64.b64decode(request["data"])))
    video.parse()
    completed = bool(video.is_completed)  # what the file says: analyse() finds it again
    video.analyse()
    height, width = video.row, video.column
    return {"ok": True, "height": height, "width": width, "mines": video.mine_num,
            "board": [list(row) for row in video.board], "software": video.software,
            "mode": video.mode, "completed": completed,
            "pixels": video.pix_size, "events": _changed_events(video, height, width)}


def main() -> None:
    """Answer requests from stdin, one JSON line each, until stdin closes."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    except (ImportError, ValueError, OSError):  # no such limit on this system
        pass
    for line in sys.stdin:
        try:
            reply = answer(json.loads(line))
        except Exception as error:  # ms_toollib raises plain exceptions for some files
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
