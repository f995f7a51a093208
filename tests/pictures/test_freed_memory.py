"""A process that rasterises a picture keeps the memory the picture frees for the next one (on
glibc): blocks of a few megabytes come from the heap rather than from fresh mappings, and the
heap does not shrink when they are freed, so the next picture takes no page faults for them.
Each check runs in a fresh interpreter, whose malloc settings no other test has touched."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")

HEAP = '''
import ctypes

def heap():
    """The [heap] mapping's start and end."""
    for line in open("/proc/self/maps"):
        if line.rstrip().endswith("[heap]"):
            start, end = line.split()[0].split("-")
            return int(start, 16), int(end, 16)
    return 0, 0

def address(block):
    return ctypes.addressof((ctypes.c_char * len(block)).from_buffer(block))
'''

IN_HEAP = HEAP + '''
{prepare}
block = bytearray(6 << 20)
start, end = heap()
print(start <= address(block) < end)
'''

KEPT = HEAP + '''
{prepare}
blocks = [bytearray(6 << 20) for _ in range(3)]
grown = heap()[1] - heap()[0]
del blocks
print(heap()[1] - heap()[0] >= grown > 18 << 20)
'''

RASTERISED = ('from pbem.pictures.raster import rasterise\n'
              'rasterise(\'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>\')')


def run(script: str) -> str:
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_blocks_of_a_few_megabytes_come_from_the_heap_once_a_picture_was_rasterised() -> None:
    assert run(IN_HEAP.format(prepare=RASTERISED)) == "True"


def test_without_a_picture_such_a_block_is_a_mapping_of_its_own() -> None:
    """The check above would pass for any process if glibc put such blocks on the heap anyway."""
    assert run(IN_HEAP.format(prepare="")) == "False"


def test_the_heap_keeps_freed_blocks_once_a_picture_was_rasterised() -> None:
    assert run(KEPT.format(prepare=RASTERISED)) == "True"
