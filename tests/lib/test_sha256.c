/* SHA-256 (host/lib/sha256.c) against the FIPS 180-4 / NIST CAVP example vectors. */
#include "testutil.h"

#include "sha256.h"

static void check(const char *msg, size_t len, const char *want) {
    char hex[65];
    sha256_hex(msg, len, hex);
    assert_string_equal(hex, want);
}

static void test_fips_vectors(void **state) {
    (void)state;
    check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 448 bits */
    check(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *four =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
        "mnopqrstnopqrstu"; /* 896 bits */
    check(four, strlen(four), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

/* One million 'a', fed in uneven pieces: exercises block boundaries in update. */
static void test_million_a(void **state) {
    (void)state;
    static char a[1000000];
    memset(a, 'a', sizeof a);
    sha256_t s;
    unsigned char d[32];
    sha256_init(&s);
    for (size_t off = 0, step = 1; off < sizeof a; off += step, step = step % 127 + 13)
        sha256_update(&s, a + off, off + step > sizeof a ? sizeof a - off : step);
    sha256_final(&s, d);
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* 55, 56 and 64 bytes: the padding lengths on either side of a block. */
static void test_padding_edges(void **state) {
    (void)state;
    char m[64];
    memset(m, 'a', sizeof m);
    check(m, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    check(m, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    check(m, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

static void test_file(void **state) {
    (void)state;
    char *dir = test_tmpdir();
    const char *p = test_path(dir, "f");
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs("abc", f);
    fclose(f);
    char hex[65];
    assert_int_equal(sha256_file_hex(p, hex), 0);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_int_equal(sha256_file_hex(test_path(dir, "missing"), hex), -1);
    test_rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fips_vectors),
        cmocka_unit_test(test_million_a),
        cmocka_unit_test(test_padding_edges),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
