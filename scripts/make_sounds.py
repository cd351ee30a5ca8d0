"""Write the game sounds (static/sounds/*.wav) from nothing but arithmetic: short sine tones with a soft attack
and a fading tail, 16-bit mono at 22,050 Hz. Run again to change them: ``python scripts/make_sounds.py``.

- move.wav: one short, woody tick (a piece put down);
- end.wav: two notes falling a fifth (the game is over);
- challenge.wav: two notes rising (someone wants to play);
- lowtime.wav: three quick high ticks (your clock is running low).
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22_050
OUT = Path(__file__).resolve().parents[1] / "static" / "sounds"


def tone(freq: float, seconds: float, volume: float = 0.5, decay: float = 8.0) -> list[float]:
    n = int(RATE * seconds)
    attack = max(1, int(RATE * 0.004))
    samples = []
    for i in range(n):
        t = i / RATE
        envelope = min(1.0, i / attack) * math.exp(-decay * t)
        # a touch of the octave above makes it less of a pure beep
        samples.append(volume * envelope * (math.sin(2 * math.pi * freq * t) + 0.25 * math.sin(4 * math.pi * freq * t)))
    return samples


def silence(seconds: float) -> list[float]:
    return [0.0] * int(RATE * seconds)


def write(name: str, samples: list[float]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    peak = max(1e-9, max(abs(s) for s in samples))
    scale = min(1.0, 0.8 / peak) * 32767
    with wave.open(str(OUT / name), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(s * scale)) for s in samples))


def main() -> None:
    write("move.wav", tone(880, 0.09, decay=40))
    write("end.wav", tone(784, 0.18, decay=10) + silence(0.03) + tone(523, 0.35, decay=6))
    write("challenge.wav", tone(587, 0.12, decay=14) + silence(0.03) + tone(880, 0.22, decay=9))
    tick = tone(1319, 0.06, decay=45)
    write("lowtime.wav", tick + silence(0.07) + tick + silence(0.07) + tick)


if __name__ == "__main__":
    main()
