#!/usr/bin/env python3
"""Checks that a file is a valid PNG: the signature, every chunk's CRC, an
IHDR first and an IEND last, IDAT data that inflates to exactly the image's
rows; and that the image is not one flat color (a program that drew nothing
fails). Prints the size. With --write PATH W H, writes an RGB test PNG.
With --compare A B, decodes both (8-bit gray/RGB/RGBA, any row filter) and
compares them channel by channel: fails when a channel differs by more than
--max-diff codes, or when more than --max-pixels pixels differ by more than
--tolerance codes (defaults 255, 0, 0); prints the figures and, with
--diff PATH, writes the pixels over the tolerance in white.

  png_check.py image.png [--size W H]
  png_check.py --write input.png W H
  png_check.py --compare a.png b.png [--tolerance T] [--max-pixels N] [--max-diff D] [--diff out.png]
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


def decode(path):
	"""(width, height, RGBA bytes) of an 8-bit, non-interlaced PNG."""
	data = open(path, "rb").read()
	if data[:8] != b"\x89PNG\r\n\x1a\n":
		sys.exit(f"{path}: not a PNG signature")
	pos, idat = 8, b""
	while pos < len(data):
		length, kind = struct.unpack(">I4s", data[pos:pos + 8])
		body = data[pos + 8:pos + 8 + length]
		if kind == b"IHDR":
			width, height, depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
		elif kind == b"IDAT":
			idat += body
		pos += 12 + length
	channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(color_type)
	if depth != 8 or channels is None or interlace:
		sys.exit(f"{path}: unsupported PNG (depth {depth}, color type {color_type}, interlace {interlace})")
	raw = zlib.decompress(idat)
	stride = width * channels
	prev = bytearray(stride)
	out = bytearray()
	for y in range(height):
		kind = raw[y * (stride + 1)]
		row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
		for i in range(stride):
			a = row[i - channels] if i >= channels else 0
			b = prev[i]
			c = prev[i - channels] if i >= channels else 0
			if kind == 1:
				row[i] = (row[i] + a) & 255
			elif kind == 2:
				row[i] = (row[i] + b) & 255
			elif kind == 3:
				row[i] = (row[i] + (a + b) // 2) & 255
			elif kind == 4:
				p = a + b - c
				pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
				row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
		prev = row
		for x in range(width):
			px = row[x * channels:(x + 1) * channels]
			if channels == 1:
				out += bytes([px[0], px[0], px[0], 255])
			elif channels == 2:
				out += bytes([px[0], px[0], px[0], px[1]])
			elif channels == 3:
				out += px + b"\xff"
			else:
				out += px
	return width, height, bytes(out)


def write_rgba(path, width, height, rgba):
	rows = b"".join(b"\x00" + rgba[y * width * 4:(y + 1) * width * 4] for y in range(height))
	header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
	with open(path, "wb") as f:
		f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) +
		        chunk(b"IEND", b""))


def compare(a_path, b_path, tolerance, max_pixels, max_diff, diff_path):
	wa, ha, a = decode(a_path)
	wb, hb, b = decode(b_path)
	if (wa, ha) != (wb, hb):
		sys.exit(f"{a_path} is {wa}x{ha}, {b_path} is {wb}x{hb}")
	worst, differing, over = 0, 0, 0
	diff = bytearray(len(a))
	for p in range(0, len(a), 4):
		d = max(abs(a[p + c] - b[p + c]) for c in range(4))
		worst = max(worst, d)
		differing += d > 0
		if d > tolerance:
			over += 1
			diff[p:p + 4] = b"\xff\xff\xff\xff"
		else:
			diff[p + 3] = 255
	pixels = wa * ha
	print(f"{a_path} vs {b_path}: {wa}x{ha}, largest channel difference {worst}, "
	      f"{differing} of {pixels} pixels differ, {over} by more than {tolerance}", flush=True)
	if diff_path:
		write_rgba(diff_path, wa, ha, bytes(diff))
	if worst > max_diff or over > max_pixels:
		sys.exit(f"images differ: limits {max_diff} codes, {max_pixels} pixels over {tolerance}")


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
	elif args[0] == "--compare":
		options = dict(zip(args[3::2], args[4::2]))
		compare(args[1], args[2], int(options.get("--tolerance", 0)), int(options.get("--max-pixels", 0)),
		        int(options.get("--max-diff", 255)), options.get("--diff"))
	else:
		size = (int(args[2]), int(args[3])) if len(args) >= 4 and args[1] == "--size" else None
		check(args[0], size)
