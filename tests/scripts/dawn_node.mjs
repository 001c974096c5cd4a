// Real-application check: Dawn for Node.js (npm "webgpu") on Tessera.
// Usage: VK_DRIVER_FILES=<build>/tessera_icd.json WEBGPU_MODULE_DIR=<dir with node_modules/webgpu> node dawn_node.mjs
// (tests/scripts/dawn_node_test.sh installs the package into a scratch directory and runs this).
// Exit 0 when the adapter is Tessera, a compute pass doubles a buffer and a
// render pass draws a triangle whose pixels read back as expected.
import { createRequire } from 'node:module';
const require = createRequire(process.env.WEBGPU_MODULE_DIR ? process.env.WEBGPU_MODULE_DIR + '/' : import.meta.url);
const webgpu = await import(require.resolve('webgpu'));
const { create, globals } = webgpu;
Object.assign(globalThis, globals);

function fail(msg) { console.error('FAIL: ' + msg); process.exit(1); }

const gpu = create(['backend=vulkan', 'enable-dawn-features=dump_shaders=0']);
const adapter = await gpu.requestAdapter();
if (!adapter) fail('no adapter');
const info = adapter.info ?? (await adapter.requestAdapterInfo());
console.log('adapter:', JSON.stringify({ vendor: info.vendor, architecture: info.architecture, device: info.device, description: info.description }));
if (!/tessera/i.test(`${info.device} ${info.description}`)) fail('adapter is not Tessera');

const device = await adapter.requestDevice();
device.addEventListener?.('uncapturederror', (e) => console.error('uncaptured:', e.error.message));
device.pushErrorScope('validation');
device.pushErrorScope('internal');

// Compute: double 64 uints.
{
	const n = 64;
	const data = new Uint32Array(n).map((_, i) => i * 3 + 1);
	const storage = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
	device.queue.writeBuffer(storage, 0, data);
	const readback = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
	const module = device.createShaderModule({ code: `
		@group(0) @binding(0) var<storage, read_write> v: array<u32>;
		@compute @workgroup_size(8) fn main(@builtin(global_invocation_id) id: vec3u) { v[id.x] = v[id.x] * 2u; }` });
	const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
	const bind = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: storage } }] });
	const enc = device.createCommandEncoder();
	const pass = enc.beginComputePass();
	pass.setPipeline(pipeline);
	pass.setBindGroup(0, bind);
	pass.dispatchWorkgroups(n / 8);
	pass.end();
	enc.copyBufferToBuffer(storage, 0, readback, 0, n * 4);
	device.queue.submit([enc.finish()]);
	await readback.mapAsync(GPUMapMode.READ);
	const out = new Uint32Array(readback.getMappedRange().slice(0));
	readback.unmap();
	for (let i = 0; i < n; i++) if (out[i] !== data[i] * 2) fail(`compute: out[${i}] = ${out[i]}, want ${data[i] * 2}`);
	console.log('compute: ok (64 values doubled)');
}

// Render: a red triangle on a blue clear, 64x64 rgba8unorm.
{
	const w = 64, h = 64;
	const tex = device.createTexture({ size: [w, h], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
	const module = device.createShaderModule({ code: `
		@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
			var p = array<vec2f, 3>(vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.0, 0.5));
			return vec4f(p[i], 0.0, 1.0);
		}
		@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }` });
	const pipeline = device.createRenderPipeline({ layout: 'auto', vertex: { module, entryPoint: 'vs' },
		fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] }, primitive: { topology: 'triangle-list' } });
	const bytesPerRow = 256;
	const buf = device.createBuffer({ size: bytesPerRow * h, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
	const enc = device.createCommandEncoder();
	const pass = enc.beginRenderPass({ colorAttachments: [{ view: tex.createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 1, a: 1 } }] });
	pass.setPipeline(pipeline);
	pass.draw(3);
	pass.end();
	enc.copyTextureToBuffer({ texture: tex }, { buffer: buf, bytesPerRow }, [w, h]);
	device.queue.submit([enc.finish()]);
	await buf.mapAsync(GPUMapMode.READ);
	const px = new Uint8Array(buf.getMappedRange().slice(0));
	buf.unmap();
	const at = (x, y) => Array.from(px.subarray(y * bytesPerRow + x * 4, y * bytesPerRow + x * 4 + 4));
	const expect = (x, y, want, what) => {
		const got = at(x, y);
		if (got.some((c, k) => c !== want[k])) fail(`render: pixel (${x},${y}) ${what} = ${got}, want ${want}`);
	};
	const red = [255, 0, 0, 255], blue = [0, 0, 255, 255];
	expect(32, 32, red, 'centre');
	expect(32, 44, red, 'lower middle (WebGPU y points down in framebuffer space)');
	expect(2, 2, blue, 'corner');
	expect(61, 61, blue, 'corner');
	expect(32, 10, blue, 'above the apex');
	console.log('render: ok (triangle pixels and clear colour as expected)');
}

const internal = await device.popErrorScope();
const validation = await device.popErrorScope();
if (internal) fail('internal error: ' + internal.message);
if (validation) fail('validation error: ' + validation.message);
device.destroy();
console.log('PASS');
process.exit(0);
