// libtessera_jit.so (see jit.h, Interface): the JIT's static library behind
// one exported function. The library's users link with
// --undefined=tessera_jit_interface (src/CMakeLists.txt), which pulls in
// the archive member that defines it; jit/module.map exports it alone.
// A module needs a source of its own: this file.
