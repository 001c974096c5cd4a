#!/usr/bin/env python3
"""Checks that a file is a valid PNG: the signature, every chunk's CRC, an
IHDR first and an IEND last, IDAT data that inflates to exactly the image's
rows; and that the image is not one flat color (a program that drew nothing
fails). Prints the size. With --write PATH W H, writes an RGB test PNG.

  png_check.py image.png [--size W H]
  png_check.py --write input.png W H
"""
import struct
import sys
import zlib


def chunk(kind, data):
	return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write(path, width, height):
	rows = b""
	for y in range(height):
		row = bytearray([0])  # filter: none
		for x in range(width):
			inside = width // 4 <= x < 3 * width // 4 and height // 4 <= y < 3 * height // 4
			row += bytes([255 * x // width, 255 * y // height, 220 if inside else 30])
		rows += row
	header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
	with open(path, "wb") as f:
		f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) +
		        chunk(b"IEND", b""))


def check(path, expected_size):
	data = open(path, "rb").read()
	if data[:8] != b"\x89PNG\r\n\x1a\n":
		sys.exit(f"{path}: not a PNG signature")
	pos, chunks, idat = 8, [], b""
	while pos < len(data):
		if pos + 12 > len(data):
			sys.exit(f"{path}: truncated chunk at {pos}")
		length, kind = struct.unpack(">I4s", data[pos:pos + 8])
		body = data[pos + 8:pos + 8 + length]
		(crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
		if len(body) != length or zlib.crc32(kind + body) != crc:
			sys.exit(f"{path}: bad {kind!r} chunk")
		chunks.append(kind)
		if kind == b"IHDR":
			width, height, depth, color_type = struct.unpack(">IIBB", body[:10])
		if kind == b"IDAT":
			idat += body
		pos += 12 + length
	if not chunks or chunks[0] != b"IHDR" or chunks[-1] != b"IEND":
		sys.exit(f"{path}: chunks out of order: {chunks}")
	channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(color_type)
	if depth != 8 or channels is None:
		sys.exit(f"{path}: unexpected format (depth {depth}, color type {color_type})")
	raw = zlib.decompress(idat)
	stride = width * channels + 1
	if len(raw) != stride * height:
		sys.exit(f"{path}: {len(raw)} bytes of rows, expected {stride * height}")
	# Unfiltered rows are not needed to see that the image is not flat:
	# a flat image's rows all have the same filtered bytes after the first.
	if len({raw[y * stride:(y + 1) * stride] for y in range(1, height)}) <= 1 and height > 2:
		sys.exit(f"{path}: every row is the same: nothing was drawn")
	if expected_size and (width, height) != expected_size:
		sys.exit(f"{path}: {width}x{height}, expected {expected_size[0]}x{expected_size[1]}")
	print(f"{path}: valid PNG, {width}x{height}, {channels} channels")


if __name__ == "__main__":
	args = sys.argv[1:]
	if args[0] == "--write":
		write(args[1], int(args[2]), int(args[3]))
	else:
		size = (int(args[2]), int(args[3])) if len(args) >= 4 and args[1] == "--size" else None
		check(args[0], size)
