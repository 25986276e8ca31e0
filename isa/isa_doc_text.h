#pragma once
// Hand-written prose of docs/isa.md (isa/isa_doc_syntax.cc).
namespace npu::isa {
const char* isa_doc_conventions();
}
