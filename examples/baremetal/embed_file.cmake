# cmake -DINPUT=file -DOUTPUT=file.c -P embed_file.cmake: the bytes of INPUT
# as a C array (ember_model_data, 32-byte aligned, read-only) and its size.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}" "/* Generated from ${INPUT} by embed_file.cmake. */\n"
     "const unsigned char ember_model_data[] __attribute__((aligned(32))) = {\n${bytes}\n};\n"
     "const unsigned int ember_model_size = ${size}u;\n")
