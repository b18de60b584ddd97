/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * DGSP hash/WOTS+/AES layer against the known-answer values of ../shared/spec/dgsp.md section 9
 * (profile dgsp-rs-0.1) and ../shared/vectors/dgsp-grove/README.md (profile grove).
 * Inputs: pub_seed = 0x11*N, sk_seed = 0x22*N, M = "abc", hash_secret = 0xAA*N,
 * id = 0x0102030405060708, seed_u = 0x33*N, wots_seed = 0x44*N; AES key 0x55*N, id 5.
 */
#include <string.h>

#include "common/util.h"
#include "dgsp/dgsp_int.h"
#include "test.h"

typedef struct {
    const char *set;
    int profile;
    const char *h_abc, *hm_abc, *chain0, *wots_pk, *chunk0, *chunk1, *last_chunk, *cid, *cid_star,
        *wots_rand, *wots_key, *csr_pk, *pi, *tau;
} kat;

static const kat kats[] = {
    /* dgsp-rs-0.1, spec section 9 */
    {"shake-256f", GROVE_DGSP_PROFILE_DGSP_RS_0_1,
     "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739",
     "010193bacaeb510fc1302bda28409808113c8f7642f7285c64404163f2b3cb46",
     "0b59179edd879df3efcdd457d0dcbc50cb0da81a86ba90c95483582c5d5be1e9",
     "9d183e91019961cb89c3859ff2eb3e1b02b25112bc20fdd95ef38c1057d50e00",
     "0b59179edd879df3efcdd457d0dcbc50cb0da81a86ba90c95483582c5d5be1e9",
     "228209cc08e8d8a504c3f89fec982792403fa74d27c98957eccded6eb09c3cac", NULL,
     "15da10b1bc3418aa0e701055f3a185c40ac777f18a317c5c67ffc934131c1595",
     "a969337665cd2c5fd140015d376e09a89f458a6c66638605c41769d163b76f92",
     "181d2d814d8dc3565d4acfed83d9f126ca8fa353bde7950e45ae0994d0630c37",
     "2bd5dc8418181bcce33cf0ab4d26ae4643f11410785fc6d4bbb1e7de37d0cb4b",
     "861296252694e0d13e649bfe90b7c503365217accf3bce00659c82edcb176853",
     "a1dbd4f2a1c9a77ee18ed0ce3eb73326ad77feb7e6809573828bca91c18684d2",
     "fcab143ce3554fee85a629f0be4055d38ea786385946fe5d6776a162626a3316"},
    {"sha2-128f", GROVE_DGSP_PROFILE_DGSP_RS_0_1, "ba7816bf8f01cfea414140de5dae2223",
     "986422ed3f328450ace8c3b7d3fdbe5b", "4463245bed02fa95660df28d77d7abfd",
     "f932f60d03486ba7f98d9b46f8e0217f", "e1b9b5972d1f6aa39374d81dd9f55fc2",
     "8feca7268d2b674e958306c065454dff", NULL, "b8a41c98a7f4b2196af8c9adddcbb113",
     "9af333f6a00d1b80f968272b9f399b55", "f8bcf0e76b1bc00e75a0e102d045582b",
     "ddb8fe38dc42220be64d5f46483c5f18", "3f8bf80d4ece47f1938f7cd729664d39",
     "05955b11b4acb30f50b045eec7247a36", "c4e92257a55db5e4761e2ddc906dabbe"},
    {"sha2-256s", GROVE_DGSP_PROFILE_DGSP_RS_0_1,
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a",
     "8a5af98f52d5e2d56b6600c0245efa50589767044bce027c7bfe7c8ff5f92dfb", NULL,
     "12f2e42ac4bae0c996f9782cbddc2b71009b3adbe40108d05b3c685487ffa71e",
     "036155a100b73995bb8fa982a36c597a0928c76c527c159df3f600ca4017623d", NULL, NULL,
     "dd1705f7cb182b9e83991790352709432a9679c1c5a928bcb3013a571e1947fa",
     "0289736d399321df8682ad0d5e1062427428634606dfd9e12ef71f34fe697f1f", NULL, NULL,
     "70cce54482e0edd03bd8e47ce2bb53488983f72a82a8ff613074bbd017af8acf",
     "80c3f0fdd0623b0eff4fd796b22e29e21969f6ee8507e4f7c0f511b4f4ba5265",
     "96fa6812261e6d603a5ebdb7dac13c23732f6e450016293b63b6ea3012243b9b"},
    {"sha2-192f", GROVE_DGSP_PROFILE_DGSP_RS_0_1, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea2",
     "db3354bec938b3cfda9f8ce258811d8bba184b9feff0b0fb", NULL,
     "f162fc79375672a64b916d0cfbfeca9d573aaec04ef23e28",
     "26599574fdab89819499e2ac20b2ce6bce768047b3bcb7bc", NULL, NULL,
     "f38e2e55b50f688e92bc4f769d46f55912b40dce02ff593f",
     "e19c8ec6ce9d03532dea5c85ef6c1bf85bfb41504db6f6f9", NULL, NULL,
     "300c14371645f800be6768c28b36d1102df7e4afca480c7a",
     "4f45bd6f2d14eaa8d0a91fbbb12b2085759604bc842b59b7",
     "e4b2bddb055ce580bc4fe4e49b24b10090e851503f469001"},
    {"shake-128s", GROVE_DGSP_PROFILE_DGSP_RS_0_1, NULL, NULL, NULL,
     "8e2cab6dc1c196657f82d1dcc89da60a", NULL, NULL, NULL, "e747572b51a0e5b37d345072961d57a8", NULL,
     NULL, NULL, NULL, NULL, "c0349d9142781ffef97c6130aa1dcb77"},
    {"shake-192f", GROVE_DGSP_PROFILE_DGSP_RS_0_1, NULL, NULL, NULL,
     "cdb1e1a47a767999fed613ddb40d7dca9431f3fa86eaab83", NULL, NULL, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, "50fa8da77aa8448848ef0c8697001c1cc8289651e54f1bc6"},
    /* grove profile, ../shared/vectors/dgsp-grove/README.md */
    {"shake-256s", GROVE_DGSP_PROFILE_GROVE, NULL, NULL,
     "0b59179edd879df3efcdd457d0dcbc50cb0da81a86ba90c95483582c5d5be1e9",
     "fdc5c4fdf27fae3f98ff4b7c132a29696902f9f2084ea488d85ca0c942c4f1f2",
     "0b59179edd879df3efcdd457d0dcbc50cb0da81a86ba90c95483582c5d5be1e9",
     "0eee4654a50c3b1f2535e243a2eaa7e6a57aa5f09d7e9ddb454c0555ee6a4820",
     "3126d8bebf9459a37c1d4752d005d0b5eb6a1f94fe617fee6f26bf132f2c9d0f", NULL, NULL, NULL, NULL,
     "9d64fa2dcba62718f9ba608b33ff6142889dcb32350ac8af47144e9dad61fb7a",
     "3f706311819204bfdeee30419a879f933619105e64cffd289f467243af3a38a5",
     "dfce3036441dc45c076381c88c5d51fda6221c6831571937f2593eb24de25adb"},
    {"sha2-128s", GROVE_DGSP_PROFILE_GROVE, NULL, NULL, "4463245bed02fa95660df28d77d7abfd",
     "456b09158cccf1a53d4de03f76442d04", "ae6c1a02db7fbff67d65555e82d4f6ad",
     "50222e92c67ff76ff4f15fed3727514d", "6db5823531ede9c9cd60c706afa0948f", NULL, NULL, NULL,
     NULL, "6f7dba14f68fc8037af68b5f9d0c4ee7", "ac3d82695c3ea6bb47fb2b4c0df89696",
     "056e12d03af9aa51760bda4f99d340b3"},
    {"sha2-256f", GROVE_DGSP_PROFILE_GROVE, NULL, NULL,
     "cd9adde38f4bc875da2d168d33b8762f6d37764f7786ce86747ffc8a88e39196",
     "048221ffc6443bdae1ede8ac4b2760f61737192911c6d740fe36d3993a536d15",
     "712ae503fb18b2a5a119ce32d407531521341a59cf500e457e6c5043ed815046",
     "faddf8f5ff311fd9dd765c039605a5724299687673391c4db3288aee9b1eb0d3",
     "6f77ceb37dc2271da23e5d70f6616e63d60e4e97004f1a2ee95d74bde016ac3b", NULL, NULL, NULL, NULL,
     "9be1679c02b78a9aceaf580c3e0028e50848d4ccf4d00a90fdbe648a5f05b9cf",
     "62db47e7b048f7ca5d23a1d44e3998ab2cfe45f43fa7901b80a32ec89720e73e",
     "b11ec5b99ce82b6b207f88bc9cedef9a41026c0cc64e8e26e737ec086bcd92ff"},
    {"shake-128f", GROVE_DGSP_PROFILE_GROVE, NULL, NULL, "5a3649fbf0b9d039d9cee2f7446fc64c",
     "c7537c153a1a4256532c5774255a08da", "ff872f64cc584da3e0ec0920aec86afc",
     "b55e2567bce89218a568d7085c2c8fb1", "56bc842e25295c69c5734267911cb6af", NULL, NULL, NULL,
     NULL, "5a89afb2e77e83aae3ce36a35b17ccda", "3c587c951b2d05ba2ad9a0ec755f331c",
     "8d9ca3b9194f33fb6d724a4aed04589b"},
};

static void expect(const char *want, const uint8_t *got, size_t n, const char *what, const char *set)
{
    if (want == NULL)
        return;
    uint8_t w[32];
    test_checks++;
    if (!test_unhex_into(w, n, want) || memcmp(w, got, n) != 0) {
        char m[128];
        snprintf(m, sizeof m, "%s %s", set, what);
        test_fail(__FILE__, __LINE__, m);
    }
}


static void one(const kat *k)
{
    grove_dgsp_cfg cfg;
    CHECK_EQ_INT(grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(k->set), GROVE_DGSP_FLAVOUR_R31,
                                     (grove_dgsp_profile)k->profile),
                 GROVE_OK);
    const size_t n = cfg.n, len = 2 * n + 3;
    uint8_t pub[32], sks[32], hs[32], su[32], ws[32], out[32], pk[32], sig[67 * 32], idb[8];
    memset(pub, 0x11, n);
    memset(sks, 0x22, n);
    memset(hs, 0xAA, n);
    memset(su, 0x33, n);
    memset(ws, 0x44, n);
    const uint8_t *abc = (const uint8_t *)"abc";
    const uint64_t id = 0x0102030405060708ULL;
    grove_store64_be(idb, id);

    dgsp_hash(&cfg, out, abc, 3, NULL, 0, NULL, 0);
    expect(k->h_abc, out, n, "H(abc)", k->set);
    dgsp_hash_msg(&cfg, out, pub, abc, 3);
    expect(k->hm_abc, out, n, "Hm(pub_seed, abc)", k->set);
    uint8_t digest[32];
    memcpy(digest, out, n);
    CHECK_EQ_INT(dgsp_wots_pk_sign(&cfg, pub, sks, digest, pk, sig), GROVE_OK);
    expect(k->wots_pk, pk, n, "WOTS pk", k->set);
    expect(k->chunk0, sig, n, "sig chunk 0", k->set);
    expect(k->chunk1, sig + n, n, "sig chunk 1", k->set);
    expect(k->last_chunk, sig + (len - 1) * n, n, "sig last chunk", k->set);
    /* the signature leads back to the public key; pk alone equals pk from pk+sign */
    dgsp_wots_pk_from_sig(&cfg, pub, sig, abc, 3, out);
    CHECK_MEM(out, pk, n);
    CHECK_EQ_INT(dgsp_wots_pk(&cfg, pub, sks, out), GROVE_OK);
    CHECK_MEM(out, pk, n);
    /* chain 0 secret start: the chunk of a digit-0 chain; in dgsp-rs-0.1, the checksum chunks */
    if (k->chain0 && k->profile == GROVE_DGSP_PROFILE_DGSP_RS_0_1)
        expect(k->chain0, sig + (len - 1) * n, n, "chain start (checksum chunk)", k->set);

    uint8_t cid[32], cid_star[32];
    dgsp_cid(&cfg, hs, id, cid, cid_star);
    expect(k->cid, cid, n, "cid", k->set);
    expect(k->cid_star, cid_star, n, "cid*", k->set);
    dgsp_hash(&cfg, out, ws, n, NULL, 0, NULL, 0);
    expect(k->wots_rand, out, n, "wots_rand", k->set);
    dgsp_hash(&cfg, out, su, n, ws, n, NULL, 0);
    expect(k->wots_key, out, n, "wots_key", k->set);
    uint8_t cpk[32], pi[32], tau[32];
    CHECK_EQ_INT(dgsp_csr_from_seeds(&cfg, su, 1, ws, cpk), GROVE_OK);
    expect(k->csr_pk, cpk, n, "CSR wots_pk", k->set);
    dgsp_hash(&cfg, pi, cpk, n, cid, n, NULL, 0);
    expect(k->pi, pi, n, "pi", k->set);
    dgsp_hash(&cfg, tau, cpk, n, pi, n, idb, 8);
    expect(k->tau, tau, n, "tau", k->set);
}

static void zetas(void)
{
    static const struct {
        const char *set, *z0, *z1;
    } z[] = {
        {"shake-128f", "ca4f8db6e14b0fdde0974dd1661bfede", "0238094c266a098275b358e396ff41b9"},
        {"sha2-192s", "7e60631c096a2f633d273f23e2443913", "1ab415b02db9e0226d3f28a796ccb79b"},
        {"shake-256f", "65bff5f370a3fdd746e9ab24752ed9e9", "2b6d259923a407a860100c24d5988a85"},
    };
    for (size_t i = 0; i < 3; i++) {
        grove_dgsp_cfg cfg;
        CHECK_EQ_INT(grove_dgsp_cfg_init(&cfg, grove_dgsp_params_get(z[i].set),
                                         GROVE_DGSP_FLAVOUR_R31, GROVE_DGSP_PROFILE_GROVE),
                     GROVE_OK);
        uint8_t key[32], out[32];
        memset(key, 0x55, cfg.n);
        CHECK_EQ_INT(dgsp_zetas(&cfg, key, 5, 0, 2, out), GROVE_OK);
        expect(z[i].z0, out, 16, "zeta ctr 0", z[i].set);
        expect(z[i].z1, out + 16, 16, "zeta ctr 1", z[i].set);
        uint64_t id, ctr;
        CHECK_EQ_INT(dgsp_unzeta(&cfg, key, out + 16, &id, &ctr), GROVE_OK);
        CHECK(id == 5 && ctr == 1);
    }
}

int main(void)
{
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++)
        one(&kats[i]);
    zetas();
    /* the 192 and 128 n values for the shake-128s/192f crate values come from the same code */
    return test_done();
}
