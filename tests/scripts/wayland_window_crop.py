#!/usr/bin/env python3
"""Finds an application's window in a compositor screenshot and writes it out
as an RGB PNG, for the Wayland presentation test (wsi_wayland_test.sh).

  wayland_window_crop.py SCREENSHOT WIDTH HEIGHT R,G,B OUT.png

The window is WIDTH x HEIGHT and its corners show the color R,G,B (vkcube's
clear color): the first row with a run of exactly WIDTH pixels of that color
whose left pixel HEIGHT - 1 rows down has it too is the window's top. The
screenshot is taken as weston-screenshooter writes it: the output's pixels
read as cairo's pre-multiplied ARGB32 and un-premultiplied into the PNG, so
they are multiplied by their alpha again here (exact where a client's color
channels do not exceed its alpha; an opaque window is copied as it is).
Exits 1 when no such window is found.
"""
import struct
import sys
import zlib


def paeth(a, b, c):
	p = a + b - c
	pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
	if pa <= pb and pa <= pc:
		return a
	return b if pb <= pc else c


def read_png(path):
	"""(width, height, channels, rows): 8-bit gray/RGB/RGBA, not interlaced."""
	data = open(path, "rb").read()
	if data[:8] != b"\x89PNG\r\n\x1a\n":
		sys.exit(f"{path}: not a PNG")
	pos, idat = 8, b""
	while pos < len(data):
		length, kind = struct.unpack(">I4s", data[pos:pos + 8])
		body = data[pos + 8:pos + 8 + length]
		if kind == b"IHDR":
			width, height, depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
			if depth != 8 or interlace or color_type not in (0, 2, 6):
				sys.exit(f"{path}: unsupported PNG (depth {depth}, color type {color_type}, interlace {interlace})")
			channels = {0: 1, 2: 3, 6: 4}[color_type]
		elif kind == b"IDAT":
			idat += body
		pos += 12 + length
	raw = zlib.decompress(idat)
	stride = width * channels
	rows, prev = [], bytearray(stride)
	for y in range(height):
		f = raw[y * (stride + 1)]
		line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
		if f == 1:
			for i in range(channels, stride):
				line[i] = (line[i] + line[i - channels]) & 255
		elif f == 2:
			line = bytearray((a + b) & 255 for a, b in zip(line, prev))
		elif f == 3:
			for i in range(stride):
				left = line[i - channels] if i >= channels else 0
				line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
		elif f == 4:
			for i in range(stride):
				left = line[i - channels] if i >= channels else 0
				up_left = prev[i - channels] if i >= channels else 0
				line[i] = (line[i] + paeth(left, prev[i], up_left)) & 255
		rows.append(bytes(line))
		prev = line
	return width, height, channels, rows


def write_rgb_png(path, width, rows):
	def chunk(kind, body):
		return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

	raw = b"".join(b"\0" + r for r in rows)
	header = struct.pack(">IIBBBBB", width, len(rows), 8, 2, 0, 0, 0)
	with open(path, "wb") as f:
		f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 1)) +
		        chunk(b"IEND", b""))


def main():
	if len(sys.argv) != 6:
		sys.exit(__doc__)
	shot, w, h, color, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
	color = bytes(int(c) for c in color.split(","))
	width, height, channels, rows = read_png(shot)
	if channels < 3:
		sys.exit(f"{shot}: not a color image")
	if channels == 4:
		rgb = [bytes((r[i] * r[i - i % 4 + 3] + 127) // 255 for i in range(len(r)) if i % 4 != 3) for r in rows]
	else:
		rgb = [b"".join(r[x * channels:x * channels + 3] for x in range(width)) for r in rows]
	for y in range(height - h + 1):
		x = 0
		while x < width:
			if rgb[y][3 * x:3 * x + 3] != color:
				x += 1
				continue
			start = x
			while x < width and rgb[y][3 * x:3 * x + 3] == color:
				x += 1
			if x - start == w and rgb[y + h - 1][3 * start:3 * start + 3] == color:
				write_rgb_png(out, w, [r[3 * start:3 * (start + w)] for r in rgb[y:y + h]])
				print(f"{shot}: a {w}x{h} window at ({start}, {y})")
				return
	sys.exit(f"{shot}: no {w}x{h} window with {tuple(color)} corners")


if __name__ == "__main__":
	main()
