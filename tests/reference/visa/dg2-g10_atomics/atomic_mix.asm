//.kernel atomic_mix
//.platform DG2
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enablePreemption -hasRNEandDenorm -noStitchExternFunc -useInlineData -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 22 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -enableHalfLSC -waLscUgmFence -insertRSDummyMov "
//.instCount 166
//.RA type	LOCAL_ROUND_ROBIN_RA

//.declare BuiltInR0 (0)  rf=r size=32 type=ud align=16 words (r0.0)
//.declare  (1)  rf=r size=32 type=ud align=16 words (r105.0)
//.declare BuiltinA0 (2)  rf=a size=4 type=ud align=1 words (a0.0)
//.declare BuiltinA0Dot2 (3)  rf=a size=4 type=ud align=1 words (a0.2)
//.declare %null (9)  rf=r size=4 type=ud align=2 words
//.declare %local_id_x (12)  rf=r size=4 type=ud align=2 words (r1.7)
//.declare %local_id_y (13)  rf=r size=4 type=ud align=2 words (r2.0)
//.declare %local_size_x (14)  rf=r size=4 type=ud align=2 words (r1.3)
//.declare %local_size_y (15)  rf=r size=4 type=ud align=2 words (r1.4)
//.declare %group_id_x (16)  rf=r size=4 type=ud align=2 words (r0.1)
//.declare %group_id_y (17)  rf=r size=4 type=ud align=2 words (r0.6)
//.declare %group_id_z (18)  rf=r size=4 type=ud align=2 words (r0.7)
//.declare %group_count_x (19)  rf=r size=4 type=ud align=2 words (r1.5)
//.declare %group_count_y (20)  rf=r size=4 type=ud align=2 words (r1.6)
//.declare %tsc (21)  rf=r size=20 type=ud align=2 words
//.declare %arg (22)  rf=r size=0 type=ud align=16 words (r26.0)
//.declare %retval (23)  rf=r size=0 type=ud align=16 words (r26.0) Output
//.declare %sp (24)  rf=r size=8 type=uq align=4 words (r125.3)
//.declare %fp (25)  rf=r size=8 type=uq align=4 words (r125.2)
//.declare %sr0 (26)  rf=r size=16 type=ud align=2 words
//.declare %cr0 (27)  rf=r size=12 type=ud align=2 words
//.declare %ce0 (28)  rf=r size=4 type=ud align=2 words
//.declare %dbg0 (29)  rf=r size=8 type=ud align=2 words
//.declare implBufPtr (31)  rf=r size=8 type=uq align=4 words (r126.0)
//.declare localIdBufPtr (32)  rf=r size=8 type=uq align=4 words (r126.3)
//.declare %msg0 (33)  rf=r size=12 type=ud align=2 words
//.declare V0033 (41)  rf=r size=32 type=d alias=+0 align=16 words (r105.0)
//.declare V0034 (42)  rf=r size=8 type=uq align=4 words (r8.0)
//.declare V0035 (43)  rf=r size=8 type=uq align=4 words (r8.2)
//.declare V0037 (45)  rf=r size=32 type=d alias=+0 align=16 words (r105.0)
//.declare V0038 (46)  rf=r size=32 type=d align=16 words (r7.0)
//.declare V0039 (47)  rf=r size=12 type=d align=2 words (r9.0)
//.declare V0040 (48)  rf=r size=32 type=w align=16 words (r1.0)
//.declare V0041 (49)  rf=r size=32 type=w align=16 words (r2.0)
//.declare V0042 (50)  rf=r size=32 type=w align=16 words (r3.0)
//.declare V0043 (51)  rf=r size=32 type=w align=16 words (r4.0)
//.declare V0044 (52)  rf=r size=32 type=w align=16 words (r5.0)
//.declare V0045 (53)  rf=r size=32 type=w align=16 words (r6.0)
//.declare V0049 (57)  rf=r size=4 type=d align=16 words (r3.0)
//.declare V0052 (60)  rf=r size=32 type=uw alias=V0040+0 align=16 words (r1.0)
//.declare V0053 (61)  rf=r size=32 type=uw alias=V0041+0 align=16 words (r2.0)
//.declare V0054 (62)  rf=r size=64 type=d align=16 words (r4.0)
//.declare V0055 (63)  rf=r size=64 type=d align=16 words (r9.0)
//.declare V0056 (64)  rf=r size=64 type=d align=16 words (r11.0)
//.declare V0057 (65)  rf=r size=64 type=d align=16 words (r13.0)
//.declare V0058 (66)  rf=r size=64 type=ud alias=V0056+0 align=16 words (r11.0)
//.declare V0059 (67)  rf=r size=64 type=ud alias=V0057+0 align=16 words (r13.0)
//.declare V0060 (68)  rf=r size=64 type=d align=16 words (r16.0)
//.declare V0061 (69)  rf=r size=64 type=d align=16 words (r18.0)
//.declare V0064 (72)  rf=r size=8 type=uq align=16 words (r106.0)
//.declare V0065 (73)  rf=r size=8 type=ud alias=V0064+0 align=16 words (r106.0)
//.declare V0066 (74)  rf=r size=8 type=ud alias=V0034+0 align=4 words (r8.0)
//.declare V0067 (75)  rf=r size=4 type=d align=16 words (r108.0)
//.declare V0068 (76)  rf=r size=64 type=d align=16 words (r35.0)
//.declare V0069 (77)  rf=r size=64 type=d align=16 words (r37.0)
//.declare V0070 (78)  rf=r size=64 type=d align=16 words (r68.0)
//.declare V0071 (79)  rf=r size=32 type=d align=16 words (r81.0)
//.declare V0072 (80)  rf=r size=16 type=d align=2 words (r90.0)
//.declare V0073 (81)  rf=r size=8 type=d align=2 words (r97.0)
//.declare V0076 (84)  rf=r size=8 type=d alias=V0034+0 align=4 words (r8.0)
//.declare V0077 (85)  rf=r size=4 type=d align=16 words (r15.0)
//.declare V0079 (87)  rf=r size=4 type=ud alias=V0077+0 align=2 words (r15.0)
//.declare V0083 (91)  rf=r size=4 type=ud align=16 words (r20.0)
//.declare V0084 (92)  rf=r size=8 type=uq align=16 words (r110.0)
//.declare V0085 (93)  rf=r size=8 type=ud alias=V0084+0 align=16 words (r110.0)
//.declare V0086 (94)  rf=r size=8 type=d alias=V0084+0 align=16 words (r110.0)
//.declare P01 (97)  rf=f32  size=4 type=uw align=2 words (f0.0)
//.declare V0089 (98)  rf=r size=2 type=uw align=1 words (r107.0)
//.declare V0091 (100)  rf=r size=4 type=ud align=2 words (r98.0)
//.declare V0092 (101)  rf=r size=4 type=d align=16 words (r112.0)
//.declare V0093 (102)  rf=r size=4 type=d align=16 words (r21.0)
//.declare V0095 (104)  rf=r size=4 type=ud alias=V0093+0 align=2 words (r21.0)
//.declare V0097 (106)  rf=r size=4 type=ud align=16 words (r22.0)
//.declare V0098 (107)  rf=r size=8 type=uq align=16 words (r114.0)
//.declare V0099 (108)  rf=r size=8 type=ud alias=V0098+0 align=16 words (r114.0)
//.declare V0100 (109)  rf=r size=8 type=d alias=V0098+0 align=16 words (r114.0)
//.declare V0103 (112)  rf=r size=4 type=d align=16 words (r116.0)
//.declare V0104 (113)  rf=r size=64 type=d align=16 words (r47.0)
//.declare V0105 (114)  rf=r size=64 type=d align=16 words (r49.0)
//.declare V0106 (115)  rf=r size=64 type=d align=16 words (r70.0)
//.declare V0107 (116)  rf=r size=32 type=d align=16 words (r82.0)
//.declare V0108 (117)  rf=r size=16 type=d align=2 words (r91.0)
//.declare V0109 (118)  rf=r size=8 type=d align=2 words (r99.0)
//.declare V0110 (119)  rf=r size=4 type=d align=16 words (r23.0)
//.declare V0112 (121)  rf=r size=4 type=ud alias=V0110+0 align=2 words (r23.0)
//.declare V0114 (123)  rf=r size=4 type=ud align=16 words (r24.0)
//.declare V0115 (124)  rf=r size=8 type=uq align=16 words (r118.0)
//.declare V0116 (125)  rf=r size=8 type=ud alias=V0115+0 align=16 words (r118.0)
//.declare V0117 (126)  rf=r size=8 type=d alias=V0115+0 align=16 words (r118.0)
//.declare V0120 (129)  rf=r size=4 type=d align=16 words (r120.0)
//.declare V0121 (130)  rf=r size=64 type=d align=16 words (r51.0)
//.declare V0122 (131)  rf=r size=64 type=d align=16 words (r53.0)
//.declare V0123 (132)  rf=r size=64 type=d align=16 words (r72.0)
//.declare V0124 (133)  rf=r size=32 type=d align=16 words (r83.0)
//.declare V0125 (134)  rf=r size=16 type=d align=2 words (r92.0)
//.declare V0126 (135)  rf=r size=8 type=d align=2 words (r100.0)
//.declare V0127 (136)  rf=r size=4 type=d align=16 words (r25.0)
//.declare V0129 (138)  rf=r size=4 type=ud alias=V0127+0 align=2 words (r25.0)
//.declare V0131 (140)  rf=r size=4 type=ud align=16 words (r26.0)
//.declare V0132 (141)  rf=r size=8 type=uq align=16 words (r122.0)
//.declare V0133 (142)  rf=r size=8 type=ud alias=V0132+0 align=16 words (r122.0)
//.declare V0134 (143)  rf=r size=8 type=d alias=V0132+0 align=16 words (r122.0)
//.declare V0135 (144)  rf=r size=64 type=d align=16 words (r39.0)
//.declare V0136 (145)  rf=r size=64 type=d align=16 words (r41.0)
//.declare V0139 (148)  rf=r size=4 type=d align=16 words (r124.0)
//.declare V0140 (149)  rf=r size=64 type=d align=16 words (r43.0)
//.declare V0141 (150)  rf=r size=64 type=d align=16 words (r45.0)
//.declare V0142 (151)  rf=r size=64 type=d align=16 words (r74.0)
//.declare V0143 (152)  rf=r size=32 type=d align=16 words (r84.0)
//.declare V0144 (153)  rf=r size=16 type=d align=2 words (r93.0)
//.declare V0145 (154)  rf=r size=8 type=d align=2 words (r101.0)
//.declare V0146 (155)  rf=r size=4 type=d align=16 words (r27.0)
//.declare V0148 (157)  rf=r size=4 type=ud alias=V0146+0 align=2 words (r27.0)
//.declare V0150 (159)  rf=r size=4 type=ud align=16 words (r33.0)
//.declare V0151 (160)  rf=r size=8 type=uq align=16 words (r126.0)
//.declare V0152 (161)  rf=r size=8 type=ud alias=V0151+0 align=16 words (r126.0)
//.declare V0153 (162)  rf=r size=8 type=d alias=V0151+0 align=16 words (r126.0)
//.declare V0154 (163)  rf=r size=64 type=d align=16 words (r29.0)
//.declare V0155 (164)  rf=r size=64 type=d align=16 words (r31.0)
//.declare V0158 (167)  rf=r size=4 type=d align=16 words (r2.0)
//.declare V0159 (168)  rf=r size=64 type=d align=16 words (r55.0)
//.declare V0160 (169)  rf=r size=64 type=d align=16 words (r57.0)
//.declare V0161 (170)  rf=r size=64 type=d align=16 words (r76.0)
//.declare V0162 (171)  rf=r size=32 type=d align=16 words (r85.0)
//.declare V0163 (172)  rf=r size=16 type=d align=2 words (r94.0)
//.declare V0164 (173)  rf=r size=8 type=d align=2 words (r102.0)
//.declare V0165 (174)  rf=r size=4 type=d align=16 words (r34.0)
//.declare V0167 (176)  rf=r size=4 type=ud alias=V0165+0 align=2 words (r34.0)
//.declare V0169 (178)  rf=r size=4 type=ud align=16 words (r59.0)
//.declare V0170 (179)  rf=r size=8 type=uq align=16 words (r4.0)
//.declare V0171 (180)  rf=r size=8 type=ud alias=V0170+0 align=16 words (r4.0)
//.declare V0172 (181)  rf=r size=8 type=d alias=V0170+0 align=16 words (r4.0)
//.declare V0175 (184)  rf=r size=4 type=d align=16 words (r6.0)
//.declare V0176 (185)  rf=r size=64 type=d align=16 words (r60.0)
//.declare V0177 (186)  rf=r size=64 type=d align=16 words (r62.0)
//.declare V0178 (187)  rf=r size=64 type=d align=16 words (r78.0)
//.declare V0179 (188)  rf=r size=32 type=d align=16 words (r86.0)
//.declare V0180 (189)  rf=r size=16 type=d align=2 words (r95.0)
//.declare V0181 (190)  rf=r size=8 type=d align=2 words (r103.0)
//.declare V0182 (191)  rf=r size=4 type=d align=16 words (r64.0)
//.declare V0184 (193)  rf=r size=4 type=ud alias=V0182+0 align=2 words (r64.0)
//.declare V0186 (195)  rf=r size=4 type=ud align=16 words (r65.0)
//.declare V0187 (196)  rf=r size=8 type=uq align=16 words (r8.0)
//.declare V0188 (197)  rf=r size=8 type=ud alias=V0187+0 align=16 words (r8.0)
//.declare V0189 (198)  rf=r size=8 type=d alias=V0187+0 align=16 words (r8.0)
//.declare V0192 (201)  rf=r size=4 type=d align=16 words (r10.0)
//.declare V0193 (202)  rf=r size=4 type=uw alias=V0091+0 align=2 words (r98.0)
//.declare V0196 (205)  rf=r size=8 type=d alias=V0035+0 align=4 words (r8.4)
//.declare V0197 (206)  rf=r size=64 type=d align=16 words (r66.0)
//.declare V0198 (207)  rf=r size=64 type=d align=16 words (r88.0)
//.declare V0201 (210)  rf=r size=64 type=ud alias=V0197+0 align=16 words (r66.0)
//.declare V0202 (211)  rf=r size=64 type=ud alias=V0198+0 align=16 words (r88.0)
//.declare V0207 (216)  rf=r size=32 type=ud align=16 words (r80.0)
//.declare V0208 (217)  rf=r size=32 type=ud align=16 words (r87.0)
//.declare V0209 (218)  rf=r size=32 type=ud align=16 words (r96.0)
//.declare V0210 (219)  rf=r size=32 type=ud align=16 words (r104.0)
//.declare V0211 (220)  rf=r size=128 type=uq align=16 words (r11.0)
//.declare V0212 (221)  rf=r size=128 type=uq align=16 words (r20.0)
//.declare V0213 (222)  rf=r size=128 type=ud alias=V0211+0 align=16 words (r11.0)
//.declare V0214 (223)  rf=r size=128 type=ud alias=V0212+0 align=16 words (r20.0)
//.declare V0215 (224)  rf=r size=128 type=d alias=V0211+0 align=16 words (r11.0)
//.declare V0216 (225)  rf=r size=128 type=d alias=V0212+0 align=16 words (r20.0)
//.declare V0220 (229)  rf=r size=64 type=ud align=16 words (r32.0)
//.declare  (230)  rf=r size=128 type=ud align=16 words (r24.0)
//.declare V0224 (234)  rf=r size=64 type=ud align=16 words (r34.0)
//.declare  (235)  rf=r size=128 type=ud align=16 words (r28.0)
//.declare V0228 (239)  rf=r size=64 type=ud align=16 words (r36.0)
//.declare V0232 (243)  rf=r size=64 type=ud align=16 words (r38.0)
//.declare V0233 (244)  rf=r size=64 type=d align=16 words (r40.0)
//.declare V0234 (245)  rf=r size=64 type=d align=16 words (r42.0)
//.declare V0237 (248)  rf=r size=8 type=uq align=4 words (r8.1)
//.declare  (249)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (250)  rf=r size=2 type=w align=1 words (r28.0)
//.declare  (254)  rf=r size=32 type=ud align=16 words (r44.0)
//.declare  (255)  rf=r size=32 type=ud align=16 words (r0.0)
//.declare  (256)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (257)  rf=r size=32 type=ud align=16 words (r1.0)
//.declare  (258)  rf=r size=32 type=ud align=16 words (r7.0)
//.declare  (259)  rf=r size=128 type=ud align=16 words (r1.0)
//.declare  (260)  rf=r size=64 type=ud align=16 words (r5.0)
//.declare  (261)  rf=r size=64 type=ud align=16 words (r8.0)

// .inputs
// +----------+----------+--------+----------+------------+
// | id       | type     |  bytes | at       | class      |
// +----------+----------+--------+----------+------------+
// | V0040    | :w x 16  |     32 | r1       | general    |
// | V0041    | :w x 16  |     32 | r2       | general    |
// | V0042    | :w x 16  |     32 | r3       | general    |
// | V0043    | :w x 16  |     32 | r4       | general    |
// | V0044    | :w x 16  |     32 | r5       | general    |
// | V0045    | :w x 16  |     32 | r6       | general    |
// | V0038    | :d x 8   |     32 | r7       | general    |
// | V0034    | :uq      |      8 | r8       | general    |
// | V0237    | :uq      |      8 | r8+8     | general    |
// | V0035    | :uq      |      8 | r8+16    | general    |
// | V0039    | :d x 3   |     12 | r9       | general    |
// +----------+----------+--------+----------+------------+


// B000: Preds:{},  Succs:{B001}
per_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                                                // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     and (1|M0)               r127.0<1>:uw  r0.4<0;1,0>:uw    0xFF:uw                             // 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x40:uw              {I@2}          // 
(W)     mad (1|M0)               r127.2<1>:ud  r127.2<0;0>:ud    r127.0<0;0>:uw    0xC0:uw              {I@1} // 
(W)     mov (8|M0)               r7.0<1>:ud    r1.0<1;1,0>:ud                                        // 
(W)     send.dc0 (8|M0)          r1       r127    null:0  0x0            0x024844FD           {A@1,$0} // wr:1h+0, rd:4; oword aligned block read x8 // $151
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x80:uw              {$0.src}       // 
(W)     send.dc0 (8|M0)          r5       r127    null:0  0x0            0x022843FD           {A@1,$1} // wr:1h+0, rd:2; oword aligned block read x4 // $151
        nop                                                                                          // 
        nop                                                                                          // 
        nop                                                                                          // 
// B001: Preds:{B000},  Succs:{B002}
// cross_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                              {$1.src}          // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     send.dc0 (8|M0)          r8       r127    null:0  0x0            0x022843FD           {A@1,$2} // wr:1h+0, rd:2; oword aligned block read x4 // $151
// B002: Preds:{B001},  Succs:{}
// _main:
(W)     mov (8|M0)               r105.0<1>:ud  r0.0<1;1,0>:ud                                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {A@1}         // $1
        sync.nop                             null                             {Compacted,A@1}        // $2
        sync.nop                             null                             {Compacted,$2.dst}     // $2
(W)     mul (1|M0)               acc0.0<1>:d   r9.0<0;1,0>:d     r105.2<0;1,0>:uw {Compacted,A@1}    // $2
(W)     mach (1|M0)              r3.0<1>:d     r9.0<0;1,0>:d     r105.1<0;1,0>:d  {Compacted,$0.dst} // $5
(W)     addc (1|M0)              r15.0<1>:ud   r8.0<0;1,0>:ud    0x4:ud              {AccWrEn}       // $24
        sync.nop                             null                             {Compacted,$1.dst}     // $5
        add3 (16|M0)             r4.0<1>:d     r3.0<0;0>:d       r1.0<1;0>:uw      r7.0<0>:d        {I@2} // $5
        add3 (16|M16)            r9.0<1>:d     r3.0<0;0>:d       r2.0<1;0>:uw      r7.0<0>:d         // $6
        shl (16|M0)              r11.0<1>:d    r4.0<1;1,0>:d     2:w               {Compacted,I@2}   // $7
        shl (16|M16)             r13.0<1>:d    r9.0<1;1,0>:d     2:w               {Compacted,I@2}   // $8
        load.ugm.d32.a32.ca.ca (16|M0)  r16:2   bti[1][r11:2]      {A@2,$3} // ex_desc:0x1000000; desc:0x64280500 // $9
        load.ugm.d32.a32.ca.ca (16|M16)  r18:2  bti[1][r13:2]      {A@1,$4} // ex_desc:0x1000000; desc:0x64280500 // $10
(W)     mov (1|M0)               r20.0<1>:ud   acc0.0<0;1,0>:ud                 {Compacted}          // $24
(W)     addc (1|M0)              r21.0<1>:ud   r8.0<0;1,0>:ud    0x8:ud              {AccWrEn}       // $34
(W)     mov (1|M0)               r28.0<1>:hf   0x1:hf                                                // $68
(W)     mov (1|M0)               r22.0<1>:ud   acc0.0<0;1,0>:ud                 {Compacted}          // $34
(W)     addc (1|M0)              r23.0<1>:ud   r8.0<0;1,0>:ud    0xC:ud              {AccWrEn}       // $48
(W)     mov (16|M0)              r35.0<1>:d    0:w                                                   // $12
(W)     mov (1|M0)               r24.0<1>:ud   acc0.0<0;1,0>:ud                 {Compacted}          // $48
(W)     addc (1|M0)              r25.0<1>:ud   r8.0<0;1,0>:ud    0x10:ud              {AccWrEn}      // $62
        and (16|M0)              r29.0<1>:d    r16.0<1;1,0>:d    7:w               {Compacted,$3.dst} // $84
(W)     mov (1|M0)               r26.0<1>:ud   acc0.0<0;1,0>:ud                 {Compacted}          // $62
(W)     addc (1|M0)              r27.0<1>:ud   r8.0<0;1,0>:ud    0x14:ud              {AccWrEn}      // $80
        and (16|M16)             r31.0<1>:d    r18.0<1;1,0>:d    7:w               {Compacted,$4.dst} // $85
(W)     mov (1|M0)               r33.0<1>:ud   acc0.0<0;1,0>:ud                 {Compacted}          // $80
(W)     addc (1|M0)              r34.0<1>:ud   r8.0<0;1,0>:ud    0x18:ud              {AccWrEn}      // $100
        and (16|M0)              r39.0<1>:d    r16.0<1;1,0>:d    31:w               {Compacted}      // $66
        and (16|M16)             r41.0<1>:d    r18.0<1;1,0>:d    31:w               {Compacted}      // $67
        shl (16|M0)              r29.0<1>:d    r28.0<0;1,0>:w    r29.0<1;1,0>:d   {A@1}              // $86 R{} IR{}{E:7,E:7,},  R{r28,} IR{} {BC=1}
        shl (16|M16)             r31.0<1>:d    r28.0<0;1,0>:w    r31.0<1;1,0>:d   {I@6}              // $87
(W)     mov (1|M0)               r59.0<1>:ud   acc0.0<0;1,0>:ud                 {Compacted}          // $100
(W)     addc (1|M0)              r64.0<1>:ud   r8.0<0;1,0>:ud    0x1C:ud              {AccWrEn}      // $114
(W)     mov (16|M16)             r37.0<1>:d    0:w                                                   // $14
(W)     mov (16|M0)              r43.0<1>:d    0:w                                                   // $70
(W)     mov (16|M16)             r45.0<1>:d    0:w                                                   // $72
(W)     mov (16|M0)              r47.0<1>:f    0x80000000:f                               {Compacted} //  (0x80000000:f); $38
(W)     mov (16|M16)             r49.0<1>:f    0x80000000:f                               {Compacted} //  (0x80000000:f); $40
(W)     mov (16|M0)              r51.0<1>:f    0x7FFFFFFF:f                                          //  (0x7fffffff:f); $52
(W)     mov (16|M16)             r53.0<1>:f    0x7FFFFFFF:f                                          //  (0x7fffffff:f); $54
(W)     mov (16|M0)              r55.0<1>:d    -1:w                                                  // $90
(W)     mov (16|M16)             r57.0<1>:d    -1:w                                                  // $92
(W)     mov (16|M0)              r60.0<1>:d    0:w                                                   // $104
(W)     mov (16|M16)             r62.0<1>:d    0:w                                                   // $106
        mov (16|M0)              r35.0<1>:f    r16.0<1;1,0>:f                   {Compacted}          // $13
(W)     mov (1|M0)               r65.0<1>:ud   acc0.0<0;1,0>:ud                 {Compacted}          // $114
        mov (16|M16)             r37.0<1>:f    r18.0<1;1,0>:f                   {Compacted,I@7}      // $15
        shl (16|M0)              r43.0<1>:d    r28.0<0;1,0>:w    r39.0<1;1,0>:d                      // $68
        shl (16|M16)             r45.0<1>:d    r28.0<0;1,0>:w    r41.0<1;1,0>:d                      // $69
        mov (16|M0)              r47.0<1>:f    r16.0<1;1,0>:f                   {Compacted}          // $39
        mov (16|M16)             r49.0<1>:f    r18.0<1;1,0>:f                   {Compacted}          // $41
        mov (16|M0)              r51.0<1>:f    r16.0<1;1,0>:f                   {Compacted}          // $53
        mov (16|M16)             r53.0<1>:f    r18.0<1;1,0>:f                   {Compacted}          // $55
        not (16|M0)              r55.0<1>:d    r29.0<1;1,0>:d                                        // $88
        not (16|M16)             r57.0<1>:d    r31.0<1;1,0>:d                                        // $89
        mov (16|M0)              r60.0<1>:f    r16.0<1;1,0>:f                   {Compacted,I@7}      // $105
        mov (16|M16)             r62.0<1>:f    r18.0<1;1,0>:f                   {Compacted,I@6}      // $107
        addc (8|M0)              r66.0<1>:ud   r8.4<0;1,0>:ud    r11.0<1;1,0>:ud  {AccWrEn,Compacted} // $123
(W)     add (16|M0)              r68.0<1>:d    r35.0<1;1,0>:d    r37.0<1;1,0>:d   {Compacted,A@7}    // $16
(W)     or (16|M0)               r74.0<1>:d    r43.0<1;1,0>:d    r45.0<1;1,0>:d   {Compacted,I@5}    // $74
(W)     sel (16|M0)   (ge)f0.0   r70.0<1>:d    r47.0<1;1,0>:d    r49.0<1;1,0>:d   {Compacted,A@5}    // $42
(W)     sel (16|M0)   (lt)f0.0   r72.0<1>:d    r51.0<1;1,0>:d    r53.0<1;1,0>:d   {Compacted,A@3}    // $56
(W)     and (16|M0)              r76.0<1>:d    r55.0<1;1,0>:d    r57.0<1;1,0>:d   {Compacted,I@6}    // $94
(W)     xor (16|M0)              r78.0<1>:d    r60.0<1;1,0>:d    r62.0<1;1,0>:d   {Compacted,A@1}    // $108
        mov (8|M0)               r80.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $123
        addc (8|M8)              r67.0<1>:ud   r8.4<0;1,0>:ud    r12.0<1;1,0>:ud  {AccWrEn}          // $125
(W)     mov (1|M0)               f0.0<1>:ud    0x0:uw                                                // $28
(W)     add (8|M0)               r81.0<1>:d    r68.0<1;1,0>:d    r69.0<1;1,0>:d   {Compacted,I@7}    // $17 R{} IR{}{E:1,E:1,},  {BC=1}
(W)     or (8|M0)                r84.0<1>:d    r74.0<1;1,0>:d    r75.0<1;1,0>:d   {Compacted,I@7}    // $75 R{} IR{}{O:2,O:2,},  {BC=1}
(W)     sel (8|M0)    (ge)f0.0   r82.0<1>:d    r70.0<1;1,0>:d    r71.0<1;1,0>:d   {I@7}              // $43 R{} IR{}{O:1,O:1,},  {BC=1}
(W)     sel (8|M0)    (lt)f0.0   r83.0<1>:d    r72.0<1;1,0>:d    r73.0<1;1,0>:d   {I@7}              // $57 R{} IR{}{E:2,E:2,},  {BC=1}
(W)     and (8|M0)               r85.0<1>:d    r76.0<1;1,0>:d    r77.0<1;1,0>:d   {Compacted,I@7}    // $95 R{} IR{}{E:3,E:3,},  {BC=1}
(W)     xor (8|M0)               r86.0<1>:d    r78.0<1;1,0>:d    r79.0<1;1,0>:d   {Compacted,I@7}    // $109 R{} IR{}{O:3,O:3,},  {BC=1}
        mov (8|M8)               r87.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $125
        cmp (32|M0)   (eq)f0.0   null<1>:uw    r107.0<0;1,0>:uw  r107.0<0;1,0>:uw                    // $29
        addc (8|M16)             r88.0<1>:ud   r8.4<0;1,0>:ud    r13.0<1;1,0>:ud  {AccWrEn}          // $127
(W)     add (4|M0)               r90.0<1>:d    r81.0<1;1,0>:d    r81.4<1;1,0>:d   {I@7}              // $18
(W)     or (4|M0)                r93.0<1>:d    r84.0<1;1,0>:d    r84.4<1;1,0>:d   {I@7}              // $76
(W)     sel (4|M0)    (ge)f0.0   r91.0<1>:d    r82.0<1;1,0>:d    r82.4<1;1,0>:d   {I@7}              // $44
(W)     sel (4|M0)    (lt)f0.0   r92.0<1>:d    r83.0<1;1,0>:d    r83.4<1;1,0>:d   {I@7}              // $58
(W)     and (4|M0)               r94.0<1>:d    r85.0<1;1,0>:d    r85.4<1;1,0>:d   {I@7}              // $96
(W)     xor (4|M0)               r95.0<1>:d    r86.0<1;1,0>:d    r86.4<1;1,0>:d   {I@7}              // $110
        mov (8|M16)              r96.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $127
        addc (8|M24)             r89.0<1>:ud   r8.4<0;1,0>:ud    r14.0<1;1,0>:ud  {AccWrEn}          // $129
(W)     cbit (1|M0)              r98.0<1>:ud   f0.0<0;1,0>:ud                   {Compacted}          // $31
(W)     add (2|M0)               r97.0<1>:d    r90.0<1;1,0>:d    r90.2<1;1,0>:d   {Compacted,I@7}    // $19
(W)     or (2|M0)                r101.0<1>:d   r93.0<1;1,0>:d    r93.2<1;1,0>:d   {Compacted,I@7}    // $77
(W)     sel (2|M0)    (ge)f0.0   r99.0<1>:d    r91.0<1;1,0>:d    r91.2<1;1,0>:d   {I@7}              // $45
(W)     sel (2|M0)    (lt)f0.0   r100.0<1>:d   r92.0<1;1,0>:d    r92.2<1;1,0>:d   {I@7}              // $59
(W)     and (2|M0)               r102.0<1>:d   r94.0<1;1,0>:d    r94.2<1;1,0>:d   {Compacted,I@7}    // $97
(W)     xor (2|M0)               r103.0<1>:d   r95.0<1;1,0>:d    r95.2<1;1,0>:d   {Compacted,I@7}    // $111
        mov (8|M24)              r104.0<1>:ud  acc0.0<1;1,0>:ud                 {Compacted}          // $129
(W)     mov (2|M0)               r106.0<1>:f   r8.0<1;1,0>:f                    {Compacted}          // $11
(W)     mov (1|M0)               r110.0<2>:f   r15.0<0;1,0>:f                   {Compacted}          // $26
(W)     add (1|M0)               r110.1<2>:ud  r20.0<0;1,0>:ud   r8.1<0;1,0>:ud                      // $25
(W)     mov (1|M0)               r114.0<2>:f   r21.0<0;1,0>:f                   {Compacted}          // $36
(W)     add (1|M0)               r114.1<2>:ud  r22.0<0;1,0>:ud   r8.1<0;1,0>:ud                      // $35
(W)     mov (1|M0)               r118.0<2>:f   r23.0<0;1,0>:f                   {Compacted}          // $50
(W)     add (1|M0)               r118.1<2>:ud  r24.0<0;1,0>:ud   r8.1<0;1,0>:ud                      // $49
(W)     mov (1|M0)               r122.0<2>:f   r25.0<0;1,0>:f                   {Compacted}          // $64
(W)     add (1|M0)               r122.1<2>:ud  r26.0<0;1,0>:ud   r8.1<0;1,0>:ud                      // $63
(W)     mov (1|M0)               r126.0<2>:f   r27.0<0;1,0>:f                   {Compacted}          // $82
(W)     add (1|M0)               r126.1<2>:ud  r33.0<0;1,0>:ud   r8.1<0;1,0>:ud                      // $81
(W)     mov (1|M0)               r4.0<2>:f     r34.0<0;1,0>:f                   {Compacted}          // $102
(W)     add (1|M0)               r4.1<2>:ud    r59.0<0;1,0>:ud   r8.1<0;1,0>:ud                      // $101
        mov (16|M16)             r28.0<1>:d    0:w                                                   // $138
        mov (16|M16)             r30.0<1>:f    r18.0<1;1,0>:f                   {Compacted}          // $139
        add (8|M0)               r11.1<2>:ud   r80.0<1;1,0>:ud   r8.5<0;1,0>:ud                      // $124
        add (8|M8)               r13.1<2>:ud   r87.0<1;1,0>:ud   r8.5<0;1,0>:ud                      // $126
(W)     mov (1|M0)               r112.0<1>:d   -r98.0<0;1,0>:ud                                      // $32
(W)     mul (1|M0)               r10.0<1>:d    r98.0<0;1,0>:uw   2:w                                 // $118
(W)     add (1|M0)               r108.0<1>:d   r97.0<0;1,0>:d    r97.1<0;1,0>:d   {Compacted}        // $20
(W)     or (1|M0)                r124.0<1>:d   r101.0<0;1,0>:d   r101.1<0;1,0>:d  {Compacted}        // $78
(W)     sel (1|M0)    (ge)f0.0   r116.0<1>:d   r99.0<0;1,0>:d    r99.1<0;1,0>:d                      // $46
(W)     sel (1|M0)    (lt)f0.0   r120.0<1>:d   r100.0<0;1,0>:d   r100.1<0;1,0>:d                     // $60
(W)     and (1|M0)               r2.0<1>:d     r102.0<0;1,0>:d   r102.1<0;1,0>:d  {Compacted}        // $98
(W)     xor (1|M0)               r6.0<1>:d     r103.0<0;1,0>:d   r103.1<0;1,0>:d  {Compacted}        // $112
(W)     mov (1|M0)               r8.0<2>:f     r64.0<0;1,0>:f                   {Compacted}          // $116
        add (8|M16)              r20.1<2>:ud   r96.0<1;1,0>:ud   r8.5<0;1,0>:ud   {F@7}              // $128
        add (8|M24)              r22.1<2>:ud   r104.0<1;1,0>:ud  r8.5<0;1,0>:ud   {F@6}              // $130
        mov (16|M0)              r24.0<1>:d    0:w                               {F@5}               // $135
        mov (16|M0)              r26.0<1>:f    r16.0<1;1,0>:f                   {Compacted}          // $136
(W)     add (1|M0)               r8.1<2>:ud    r65.0<0;1,0>:ud   r8.1<0;1,0>:ud                      // $115
        mov (8|M0)               r11.0<2>:d    r66.0<1;1,0>:d                                        // $131
        mov (8|M8)               r13.0<2>:d    r67.0<1;1,0>:d                                        // $131
        mov (8|M16)              r20.0<2>:d    r88.0<1;1,0>:d                                        // $133
        mov (8|M24)              r22.0<2>:d    r89.0<1;1,0>:d                                        // $133
(W)     send.dc1 (1|M0)          null     r106    r108:1  0x0            0x040487FF           {$5} // wr:2+1, rd:0; untyped a64 atomic int32 integer add // $21
(W)     send.dc1 (1|M0)          null     r110    r112:1  0x0            0x040487FF           {$6} // wr:2+1, rd:0; untyped a64 atomic int32 integer add // $33
(W)     send.dc1 (1|M0)          null     r114    r116:1  0x0            0x04048AFF           {$7} // wr:2+1, rd:0; untyped a64 atomic int32 signed-integer max // $47
(W)     send.dc1 (1|M0)          null     r118    r120:1  0x0            0x04048BFF           {A@7,$8} // wr:2+1, rd:0; untyped a64 atomic int32 signed-integer min // $61
(W)     send.dc1 (1|M0)          null     r122    r124:1  0x0            0x040482FF           {$9} // wr:2+1, rd:0; untyped a64 atomic int32 logical OR // $79
(W)     send.dc1 (1|M0)          null     r126    r2:1    0x0            0x040481FF           {A@5,$10} // wr:2+1, rd:0; untyped a64 atomic int32 logical AND // $99
(W)     send.dc1 (1|M0)          null     r4      r6:1    0x0            0x040483FF           {A@4,$11} // wr:2+1, rd:0; untyped a64 atomic int32 logical XOR // $113
(W)     send.dc1 (1|M0)          null     r8      r10:1   0x0            0x040487FF           {A@2,$12} // wr:2+1, rd:0; untyped a64 atomic int32 integer add // $120
        atomic_icas.ugm.d32.a64 (16|M0)  r32:2  [r11:4]           r24:4              {A@1,$13} // ex_desc:0x0; desc:0x8200592 // $136
        atomic_icas.ugm.d32.a64 (16|M16)  r34:2 [r20:4]           r28:4              {A@1,$14} // ex_desc:0x0; desc:0x8200592 // $139
        atomic_store.ugm.d32.a64 (16|M0)  r36:2 [r11:4]           r24:2              {$15} // ex_desc:0x0; desc:0x820058B // $142
        atomic_store.ugm.d32.a64 (16|M16)  r38:2 [r20:4]          r28:2              {$0} // ex_desc:0x0; desc:0x820058B // $145
(W)     mov (8|M0)               r127.0<1>:f   r105.0<1;1,0>:f                  {Compacted,$10.src}  // $151
        sync.nop                             null                             {Compacted,$15.dst}    // $147
        add (16|M0)              r40.0<1>:d    r32.0<1;1,0>:d    r36.0<1;1,0>:d   {Compacted,$13.dst} // $147
        sync.nop                             null                             {Compacted,$0.dst}     // $148
        add (16|M16)             r42.0<1>:d    r34.0<1;1,0>:d    r38.0<1;1,0>:d   {Compacted,$14.dst} // $148
        atomic_store.ugm.d32.a64 (16|M0)  null:0 [r11:4]          r40:2              {A@2,$1} // ex_desc:0x0; desc:0x800058B // $149
        atomic_store.ugm.d32.a64 (16|M16)  null:0 [r20:4]         r42:2              {A@1,$2} // ex_desc:0x0; desc:0x800058B // $150
(W)     send.ugm (1|M0)          r44      r105    null:0  0x0            0x0210651F           {$3} // wr:1+0, rd:1; fence invalid flush type scoped to tile // $151
(W)     mov (8|M0)               null<1>:ud    r44.0<1;1,0>:ud                  {$3.dst}             //  memory fence commit; $151
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread // $151
L2104:
        nop                                                                                          // $151


//.BankConflicts: 7
//.BankConflicts.SameBank: 0
//.BankConflicts.TwoSrc: 7
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 220
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
