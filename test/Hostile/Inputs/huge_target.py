"""The module header of the hostile generators: a target whose SBUF holds
2^62 bytes per partition, so that tensors of 2^48 bytes fit."""

MODULE_HEADER = (
    "module attributes {bir.target = #bir.target<name = \"huge\", "
    "sbuf_partitions = 128, sbuf_bytes_per_partition = 4611686018427387904, "
    "psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, "
    "max_stationary_free = 128, max_moving_free = 512>} {\n"
    "bir.func @main {\n")
