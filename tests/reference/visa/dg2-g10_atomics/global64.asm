//.kernel global64
//.platform DG2
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enablePreemption -hasRNEandDenorm -noStitchExternFunc -useInlineData -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 22 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -enableHalfLSC -waLscUgmFence -insertRSDummyMov "
//.instCount 280
//.RA type	LOCAL_FIRST_FIT_RA

//.declare BuiltInR0 (0)  rf=r size=32 type=ud align=16 words (r0.0)
//.declare  (1)  rf=r size=32 type=ud align=16 words (r74.0)
//.declare BuiltinA0 (2)  rf=a size=4 type=ud align=1 words (a0.0)
//.declare BuiltinA0Dot2 (3)  rf=a size=4 type=ud align=1 words (a0.2)
//.declare %null (9)  rf=r size=4 type=ud align=2 words
//.declare %local_id_x (12)  rf=r size=4 type=ud align=2 words (r2.2)
//.declare %local_id_y (13)  rf=r size=4 type=ud align=2 words (r2.3)
//.declare %local_size_x (14)  rf=r size=4 type=ud align=2 words (r1.6)
//.declare %local_size_y (15)  rf=r size=4 type=ud align=2 words (r1.7)
//.declare %group_id_x (16)  rf=r size=4 type=ud align=2 words (r0.1)
//.declare %group_id_y (17)  rf=r size=4 type=ud align=2 words (r0.6)
//.declare %group_id_z (18)  rf=r size=4 type=ud align=2 words (r0.7)
//.declare %group_count_x (19)  rf=r size=4 type=ud align=2 words (r2.0)
//.declare %group_count_y (20)  rf=r size=4 type=ud align=2 words (r2.1)
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
//.declare V0033 (41)  rf=r size=32 type=d alias=+0 align=16 words (r74.0)
//.declare V0034 (42)  rf=r size=8 type=uq align=4 words (r8.0)
//.declare V0036 (44)  rf=r size=32 type=d alias=+0 align=16 words (r74.0)
//.declare V0037 (45)  rf=r size=32 type=d align=16 words (r7.0)
//.declare V0038 (46)  rf=r size=12 type=d align=2 words (r9.0)
//.declare V0039 (47)  rf=r size=12 type=d align=2 words (r9.3)
//.declare V0040 (48)  rf=r size=32 type=w align=16 words (r1.0)
//.declare V0041 (49)  rf=r size=32 type=w align=16 words (r2.0)
//.declare V0042 (50)  rf=r size=32 type=w align=16 words (r3.0)
//.declare V0043 (51)  rf=r size=32 type=w align=16 words (r4.0)
//.declare V0044 (52)  rf=r size=32 type=w align=16 words (r5.0)
//.declare V0045 (53)  rf=r size=32 type=w align=16 words (r6.0)
//.declare V0049 (57)  rf=r size=4 type=d align=16 words (r3.0)
//.declare V0052 (60)  rf=r size=32 type=uw alias=V0040+0 align=16 words (r1.0)
//.declare V0053 (61)  rf=r size=32 type=uw alias=V0041+0 align=16 words (r2.0)
//.declare V0054 (62)  rf=r size=64 type=d align=16 words (r43.0)
//.declare V0055 (63)  rf=r size=64 type=d align=16 words (r45.0)
//.declare V0056 (64)  rf=r size=64 type=d align=16 words (r4.0)
//.declare V0057 (65)  rf=r size=64 type=d align=16 words (r10.0)
//.declare V0058 (66)  rf=r size=64 type=d align=16 words (r12.0)
//.declare V0059 (67)  rf=r size=64 type=d align=16 words (r14.0)
//.declare V0060 (68)  rf=r size=64 type=ud alias=V0058+0 align=16 words (r12.0)
//.declare V0061 (69)  rf=r size=64 type=ud alias=V0059+0 align=16 words (r14.0)
//.declare V0062 (70)  rf=r size=128 type=d align=16 words (r18.0)
//.declare V0063 (71)  rf=r size=128 type=d align=16 words (r22.0)
//.declare V0066 (74)  rf=r size=8 type=d alias=V0034+0 align=4 words (r8.0)
//.declare V0067 (75)  rf=r size=64 type=d align=16 words (r16.0)
//.declare V0068 (76)  rf=r size=64 type=d align=16 words (r28.0)
//.declare V0069 (77)  rf=r size=64 type=d align=16 words (r26.0)
//.declare V0070 (78)  rf=r size=64 type=d align=16 words (r31.0)
//.declare V0073 (81)  rf=r size=64 type=ud alias=V0069+0 align=16 words (r26.0)
//.declare V0074 (82)  rf=r size=64 type=ud alias=V0070+0 align=16 words (r31.0)
//.declare V0079 (87)  rf=r size=64 type=ud alias=V0067+0 align=16 words (r16.0)
//.declare V0080 (88)  rf=r size=64 type=ud alias=V0068+0 align=16 words (r28.0)
//.declare V0081 (89)  rf=r size=32 type=ud align=16 words (r6.0)
//.declare V0082 (90)  rf=r size=32 type=ud align=16 words (r30.0)
//.declare V0083 (91)  rf=r size=32 type=ud align=16 words (r33.0)
//.declare V0084 (92)  rf=r size=32 type=ud align=16 words (r34.0)
//.declare V0085 (93)  rf=r size=128 type=uq align=16 words (r43.0)
//.declare V0086 (94)  rf=r size=128 type=uq align=16 words (r47.0)
//.declare V0087 (95)  rf=r size=128 type=ud alias=V0085+0 align=16 words (r43.0)
//.declare V0088 (96)  rf=r size=128 type=ud alias=V0086+0 align=16 words (r47.0)
//.declare V0089 (97)  rf=r size=128 type=d alias=V0085+0 align=16 words (r43.0)
//.declare V0090 (98)  rf=r size=128 type=d alias=V0086+0 align=16 words (r47.0)
//.declare V0093 (101)  rf=r size=128 type=q align=16 words (r51.0)
//.declare V0094 (102)  rf=r size=128 type=q align=16 words (r16.0)
//.declare V0095 (103)  rf=r size=128 type=d alias=V0093+0 align=16 words (r51.0)
//.declare V0096 (104)  rf=r size=128 type=d alias=V0094+0 align=16 words (r16.0)
//.declare V0099 (107)  rf=r size=128 type=uq align=16 words (r20.0)
//.declare V0104 (112)  rf=r size=128 type=ud alias=V0099+0 align=16 words (r20.0)
//.declare V0105 (113)  rf=r size=128 type=uq align=16 words (r55.0)
//.declare V0106 (114)  rf=r size=128 type=ud alias=V0105+0 align=16 words (r55.0)
//.declare V0111 (119)  rf=r size=128 type=d align=16 words (r43.0)
//.declare V0112 (120)  rf=r size=128 type=d align=16 words (r16.0)
//.declare V0113 (121)  rf=r size=4 type=d align=16 words (r6.0)
//.declare V0115 (123)  rf=r size=4 type=ud alias=V0113+0 align=2 words (r6.0)
//.declare V0117 (125)  rf=r size=4 type=ud align=16 words (r24.0)
//.declare V0118 (126)  rf=r size=8 type=uq align=16 words (r34.0)
//.declare V0119 (127)  rf=r size=8 type=ud alias=V0118+0 align=16 words (r34.0)
//.declare V0120 (128)  rf=r size=8 type=d alias=V0118+0 align=16 words (r34.0)
//.declare V0123 (131)  rf=r size=128 type=q align=16 words (r47.0)
//.declare V0124 (132)  rf=r size=128 type=q align=16 words (r20.0)
//.declare V0125 (133)  rf=r size=128 type=d alias=V0123+0 align=16 words (r47.0)
//.declare V0126 (134)  rf=r size=128 type=d alias=V0124+0 align=16 words (r20.0)
//.declare V0129 (137)  rf=r size=128 type=uq align=16 words (r51.0)
//.declare V0130 (138)  rf=r size=128 type=ud alias=V0129+0 align=16 words (r51.0)
//.declare V0131 (139)  rf=r size=128 type=uq align=16 words (r24.0)
//.declare V0136 (144)  rf=r size=128 type=ud alias=V0131+0 align=16 words (r24.0)
//.declare V0137 (145)  rf=r size=128 type=uq align=16 words (r16.0)
//.declare V0138 (146)  rf=r size=128 type=ud alias=V0137+0 align=16 words (r16.0)
//.declare V0139 (147)  rf=r size=128 type=uq align=16 words (r28.0)
//.declare V0140 (148)  rf=r size=128 type=ud alias=V0139+0 align=16 words (r28.0)
//.declare V0145 (153)  rf=r size=64 type=d align=16 words (r55.0)
//.declare V0146 (154)  rf=r size=64 type=d align=16 words (r57.0)
//.declare V0147 (155)  rf=r size=128 type=d align=16 words (r18.0)
//.declare V0148 (156)  rf=r size=128 type=d align=16 words (r47.0)
//.declare V0149 (157)  rf=r size=64 type=ud alias=V0145+0 align=16 words (r55.0)
//.declare V0150 (158)  rf=r size=64 type=ud alias=V0146+0 align=16 words (r57.0)
//.declare V0151 (159)  rf=r size=4 type=d align=16 words (r32.0)
//.declare V0153 (161)  rf=r size=4 type=ud alias=V0151+0 align=2 words (r32.0)
//.declare V0155 (163)  rf=r size=4 type=ud align=16 words (r33.0)
//.declare V0156 (164)  rf=r size=8 type=uq align=16 words (r6.0)
//.declare V0157 (165)  rf=r size=8 type=ud alias=V0156+0 align=16 words (r6.0)
//.declare V0158 (166)  rf=r size=8 type=d alias=V0156+0 align=16 words (r6.0)
//.declare V0161 (169)  rf=r size=128 type=q align=16 words (r22.0)
//.declare V0162 (170)  rf=r size=128 type=q align=16 words (r26.0)
//.declare V0163 (171)  rf=r size=128 type=d alias=V0161+0 align=16 words (r22.0)
//.declare V0164 (172)  rf=r size=128 type=d alias=V0162+0 align=16 words (r26.0)
//.declare V0167 (175)  rf=r size=128 type=uq align=16 words (r51.0)
//.declare V0168 (176)  rf=r size=128 type=ud alias=V0167+0 align=16 words (r51.0)
//.declare V0169 (177)  rf=r size=128 type=uq align=16 words (r47.0)
//.declare V0174 (182)  rf=r size=128 type=ud alias=V0169+0 align=16 words (r47.0)
//.declare V0175 (183)  rf=r size=128 type=uq align=16 words (r16.0)
//.declare V0176 (184)  rf=r size=128 type=ud alias=V0175+0 align=16 words (r16.0)
//.declare V0177 (185)  rf=r size=128 type=uq align=16 words (r55.0)
//.declare V0178 (186)  rf=r size=128 type=ud alias=V0177+0 align=16 words (r55.0)
//.declare V0183 (191)  rf=r size=4 type=d align=2 words (r2.1)
//.declare V0184 (192)  rf=r size=64 type=d align=16 words (r20.0)
//.declare V0185 (193)  rf=r size=64 type=d align=16 words (r30.0)
//.declare V0186 (194)  rf=r size=128 type=d align=16 words (r16.0)
//.declare V0187 (195)  rf=r size=128 type=d align=16 words (r24.0)
//.declare V0188 (196)  rf=r size=64 type=ud alias=V0184+0 align=16 words (r20.0)
//.declare V0189 (197)  rf=r size=64 type=ud alias=V0185+0 align=16 words (r30.0)
//.declare V0190 (198)  rf=r size=4 type=d align=16 words (r2.0)
//.declare V0192 (200)  rf=r size=4 type=ud alias=V0190+0 align=2 words (r2.0)
//.declare V0194 (202)  rf=r size=4 type=ud align=16 words (r3.0)
//.declare V0195 (203)  rf=r size=8 type=uq align=16 words (r6.0)
//.declare V0196 (204)  rf=r size=8 type=ud alias=V0195+0 align=16 words (r6.0)
//.declare V0197 (205)  rf=r size=8 type=d alias=V0195+0 align=16 words (r6.0)
//.declare V0200 (208)  rf=r size=128 type=q align=16 words (r47.0)
//.declare V0201 (209)  rf=r size=128 type=q align=16 words (r51.0)
//.declare V0202 (210)  rf=r size=128 type=d alias=V0200+0 align=16 words (r47.0)
//.declare V0203 (211)  rf=r size=128 type=d alias=V0201+0 align=16 words (r51.0)
//.declare V0206 (214)  rf=r size=128 type=uq align=16 words (r55.0)
//.declare V0207 (215)  rf=r size=128 type=ud alias=V0206+0 align=16 words (r55.0)
//.declare V0208 (216)  rf=r size=128 type=uq align=16 words (r16.0)
//.declare V0213 (221)  rf=r size=128 type=ud alias=V0208+0 align=16 words (r16.0)
//.declare V0214 (222)  rf=r size=128 type=uq align=16 words (r20.0)
//.declare V0215 (223)  rf=r size=128 type=ud alias=V0214+0 align=16 words (r20.0)
//.declare V0216 (224)  rf=r size=128 type=uq align=16 words (r24.0)
//.declare V0217 (225)  rf=r size=128 type=ud alias=V0216+0 align=16 words (r24.0)
//.declare V0222 (230)  rf=r size=64 type=d align=16 words (r28.0)
//.declare V0223 (231)  rf=r size=64 type=d align=16 words (r50.0)
//.declare V0224 (232)  rf=r size=128 type=d align=16 words (r20.0)
//.declare V0225 (233)  rf=r size=128 type=d align=16 words (r62.0)
//.declare V0226 (234)  rf=r size=64 type=ud alias=V0222+0 align=16 words (r28.0)
//.declare V0227 (235)  rf=r size=64 type=ud alias=V0223+0 align=16 words (r50.0)
//.declare V0228 (236)  rf=r size=64 type=d align=16 words (r28.0)
//.declare V0229 (237)  rf=r size=64 type=d align=16 words (r32.0)
//.declare V0230 (238)  rf=r size=64 type=d align=16 words (r30.0)
//.declare V0231 (239)  rf=r size=64 type=d align=16 words (r47.0)
//.declare V0234 (242)  rf=r size=64 type=ud alias=V0230+0 align=16 words (r30.0)
//.declare V0235 (243)  rf=r size=64 type=ud alias=V0231+0 align=16 words (r47.0)
//.declare V0238 (246)  rf=r size=64 type=ud alias=V0228+0 align=16 words (r28.0)
//.declare V0239 (247)  rf=r size=64 type=ud alias=V0229+0 align=16 words (r32.0)
//.declare V0240 (248)  rf=r size=32 type=ud align=16 words (r3.0)
//.declare V0241 (249)  rf=r size=32 type=ud align=16 words (r34.0)
//.declare V0242 (250)  rf=r size=32 type=ud align=16 words (r49.0)
//.declare V0243 (251)  rf=r size=32 type=ud align=16 words (r2.0)
//.declare V0244 (252)  rf=r size=128 type=uq align=16 words (r12.0)
//.declare V0245 (253)  rf=r size=128 type=uq align=16 words (r35.0)
//.declare V0246 (254)  rf=r size=128 type=ud alias=V0244+0 align=16 words (r12.0)
//.declare V0247 (255)  rf=r size=128 type=ud alias=V0245+0 align=16 words (r35.0)
//.declare V0248 (256)  rf=r size=128 type=d alias=V0244+0 align=16 words (r12.0)
//.declare V0249 (257)  rf=r size=128 type=d alias=V0245+0 align=16 words (r35.0)
//.declare P01 (258)  rf=f32  size=4 type=uw align=2 words (f0.0)
//.declare V0270 (279)  rf=r size=128 type=uq align=16 words (r20.0)
//.declare  (280)  rf=r size=256 type=ud align=16 words (r66.0)
//.declare V0275 (285)  rf=r size=128 type=ud alias=V0270+0 align=16 words (r20.0)
//.declare V0276 (286)  rf=r size=128 type=uq align=16 words (r28.0)
//.declare  (287)  rf=r size=256 type=ud align=16 words (r50.0)
//.declare V0277 (288)  rf=r size=128 type=ud alias=V0276+0 align=16 words (r28.0)
//.declare V0282 (293)  rf=r size=4 type=d align=2 words (r2.0)
//.declare V0283 (294)  rf=r size=64 type=d align=16 words (r16.0)
//.declare V0284 (295)  rf=r size=64 type=d align=16 words (r18.0)
//.declare V0285 (296)  rf=r size=128 type=d align=16 words (r12.0)
//.declare V0286 (297)  rf=r size=128 type=d align=16 words (r24.0)
//.declare V0287 (298)  rf=r size=64 type=ud alias=V0283+0 align=16 words (r16.0)
//.declare V0288 (299)  rf=r size=64 type=ud alias=V0284+0 align=16 words (r18.0)
//.declare V0289 (300)  rf=r size=8 type=uq align=4 words (r8.1)
//.declare V0290 (301)  rf=r size=8 type=uq align=4 words (r8.2)
//.declare  (302)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (303)  rf=r size=2 type=w align=1 words (r2.0)
//.declare  (305)  rf=r size=64 type=d align=16 words (r35.0)
//.declare  (306)  rf=r size=64 type=d align=16 words (r39.0)
//.declare  (307)  rf=r size=64 type=d align=16 words (r37.0)
//.declare  (308)  rf=r size=64 type=d align=16 words (r41.0)
//.declare  (313)  rf=r size=64 type=d align=16 words (r25.0)
//.declare  (314)  rf=r size=64 type=d align=16 words (r27.0)
//.declare  (315)  rf=r size=64 type=d align=16 words (r29.0)
//.declare  (316)  rf=r size=64 type=d align=16 words (r31.0)
//.declare  (325)  rf=r size=64 type=d align=16 words (r59.0)
//.declare  (326)  rf=r size=64 type=d align=16 words (r61.0)
//.declare  (327)  rf=r size=64 type=d align=16 words (r63.0)
//.declare  (328)  rf=r size=64 type=d align=16 words (r16.0)
//.declare  (337)  rf=r size=64 type=d align=16 words (r33.0)
//.declare  (338)  rf=r size=64 type=d align=16 words (r59.0)
//.declare  (339)  rf=r size=64 type=d align=16 words (r61.0)
//.declare  (340)  rf=r size=64 type=d align=16 words (r22.0)
//.declare  (349)  rf=r size=64 type=d align=16 words (r52.0)
//.declare  (350)  rf=r size=64 type=d align=16 words (r54.0)
//.declare  (351)  rf=r size=64 type=d align=16 words (r56.0)
//.declare  (352)  rf=r size=64 type=d align=16 words (r32.0)
//.declare  (353)  rf=r size=64 type=d align=16 words (r20.0)
//.declare  (354)  rf=r size=64 type=d align=16 words (r22.0)
//.declare  (355)  rf=r size=64 type=d align=16 words (r12.0)
//.declare  (356)  rf=r size=64 type=d align=16 words (r14.0)
//.declare  (357)  rf=r size=64 type=q align=16 words (r58.0)
//.declare  (358)  rf=r size=64 type=q align=16 words (r60.0)
//.declare  (359)  rf=r size=64 type=q align=16 words (r4.0)
//.declare  (360)  rf=r size=64 type=q align=16 words (r10.0)
//.declare  (365)  rf=r size=64 type=q align=16 words (r16.0)
//.declare  (366)  rf=r size=64 type=q align=16 words (r18.0)
//.declare  (367)  rf=r size=64 type=q align=16 words (r24.0)
//.declare  (368)  rf=r size=64 type=q align=16 words (r26.0)
//.declare  (373)  rf=r size=64 type=d align=16 words (r32.0)
//.declare  (374)  rf=r size=64 type=d align=16 words (r3.0)
//.declare  (375)  rf=r size=64 type=d align=16 words (r5.0)
//.declare  (376)  rf=r size=64 type=d align=16 words (r10.0)
//.declare  (377)  rf=r size=64 type=ud alias=+0 align=16 words (r25.0)
//.declare  (378)  rf=r size=64 type=ud alias=+0 align=16 words (r27.0)
//.declare  (379)  rf=r size=64 type=ud alias=+0 align=16 words (r29.0)
//.declare  (380)  rf=r size=64 type=ud alias=+0 align=16 words (r31.0)
//.declare  (381)  rf=r size=64 type=ud alias=+0 align=16 words (r59.0)
//.declare  (382)  rf=r size=64 type=ud alias=+0 align=16 words (r61.0)
//.declare  (383)  rf=r size=64 type=ud alias=+0 align=16 words (r63.0)
//.declare  (384)  rf=r size=64 type=ud alias=+0 align=16 words (r16.0)
//.declare  (385)  rf=r size=64 type=ud alias=+0 align=16 words (r33.0)
//.declare  (386)  rf=r size=64 type=ud alias=+0 align=16 words (r59.0)
//.declare  (387)  rf=r size=64 type=ud alias=+0 align=16 words (r61.0)
//.declare  (388)  rf=r size=64 type=ud alias=+0 align=16 words (r22.0)
//.declare  (389)  rf=r size=64 type=ud alias=+0 align=16 words (r52.0)
//.declare  (390)  rf=r size=64 type=ud alias=+0 align=16 words (r54.0)
//.declare  (391)  rf=r size=64 type=ud alias=+0 align=16 words (r56.0)
//.declare  (392)  rf=r size=64 type=ud alias=+0 align=16 words (r32.0)
//.declare  (393)  rf=r size=64 type=d alias=+0 align=16 words (r58.0)
//.declare  (394)  rf=r size=64 type=d alias=+0 align=16 words (r60.0)
//.declare  (395)  rf=r size=64 type=d alias=+0 align=16 words (r4.0)
//.declare  (396)  rf=r size=64 type=d alias=+0 align=16 words (r10.0)
//.declare  (397)  rf=r size=64 type=d alias=+0 align=16 words (r16.0)
//.declare  (398)  rf=r size=64 type=d alias=+0 align=16 words (r18.0)
//.declare  (399)  rf=r size=64 type=d alias=+0 align=16 words (r24.0)
//.declare  (400)  rf=r size=64 type=d alias=+0 align=16 words (r26.0)
//.declare  (401)  rf=r size=64 type=ud alias=+0 align=16 words (r58.0)
//.declare  (402)  rf=r size=64 type=ud alias=+0 align=16 words (r60.0)
//.declare  (403)  rf=r size=64 type=ud alias=+0 align=16 words (r16.0)
//.declare  (404)  rf=r size=64 type=ud alias=+0 align=16 words (r18.0)
//.declare  (405)  rf=r size=64 type=ud alias=+0 align=16 words (r32.0)
//.declare  (406)  rf=r size=64 type=ud alias=+0 align=16 words (r3.0)
//.declare  (407)  rf=r size=64 type=ud alias=+0 align=16 words (r4.0)
//.declare  (408)  rf=r size=64 type=ud alias=+0 align=16 words (r10.0)
//.declare  (409)  rf=r size=64 type=ud alias=+0 align=16 words (r24.0)
//.declare  (410)  rf=r size=64 type=ud alias=+0 align=16 words (r26.0)
//.declare  (411)  rf=r size=64 type=ud alias=+0 align=16 words (r5.0)
//.declare  (412)  rf=r size=64 type=ud alias=+0 align=16 words (r10.0)
//.declare  (413)  rf=r size=32 type=ud align=16 words (r2.0)
//.declare  (414)  rf=r size=32 type=ud align=16 words (r0.0)
//.declare  (415)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (416)  rf=r size=32 type=ud align=16 words (r1.0)
//.declare  (417)  rf=r size=32 type=ud align=16 words (r7.0)
//.declare  (418)  rf=r size=128 type=ud align=16 words (r1.0)
//.declare  (419)  rf=r size=64 type=ud align=16 words (r5.0)
//.declare  (420)  rf=r size=64 type=ud align=16 words (r8.0)

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
// | V0037    | :d x 8   |     32 | r7       | general    |
// | V0034    | :uq      |      8 | r8       | general    |
// | V0289    | :uq      |      8 | r8+8     | general    |
// | V0290    | :uq      |      8 | r8+16    | general    |
// | V0038    | :d x 3   |     12 | r9       | general    |
// | V0039    | :d x 3   |     12 | r9+12    | general    |
// +----------+----------+--------+----------+------------+


// B000: Preds:{},  Succs:{B001}
per_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                                                // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     and (1|M0)               r127.0<1>:uw  r0.4<0;1,0>:uw    0xFF:uw                             // 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x40:uw              {I@2}          // 
(W)     mad (1|M0)               r127.2<1>:ud  r127.2<0;0>:ud    r127.0<0;0>:uw    0xC0:uw              {I@1} // 
(W)     mov (8|M0)               r7.0<1>:ud    r1.0<1;1,0>:ud                                        // 
(W)     send.dc0 (8|M0)          r1       r127    null:0  0x0            0x024844FD           {A@1,$0} // wr:1h+0, rd:4; oword aligned block read x8 // $263
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x80:uw              {$0.src}       // 
(W)     send.dc0 (8|M0)          r5       r127    null:0  0x0            0x022843FD           {A@1,$1} // wr:1h+0, rd:2; oword aligned block read x4 // $263
        nop                                                                                          // 
        nop                                                                                          // 
        nop                                                                                          // 
// B001: Preds:{B000},  Succs:{B002}
// cross_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                              {$1.src}          // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     send.dc0 (8|M0)          r8       r127    null:0  0x0            0x022843FD           {A@1,$2} // wr:1h+0, rd:2; oword aligned block read x4 // $263
// B002: Preds:{B001},  Succs:{}
// _main:
(W)     mov (8|M0)               r74.0<1>:ud   r0.0<1;1,0>:ud                                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {A@1}         // $1
        sync.nop                             null                             {Compacted,A@1}        // $2
        sync.nop                             null                             {Compacted,$2.dst}     // $2
(W)     mul (1|M0)               acc0.0<1>:d   r9.3<0;1,0>:d     r74.2<0;1,0>:uw  {A@1}              // $2
(W)     mach (1|M0)              r3.0<1>:d     r9.3<0;1,0>:d     r74.1<0;1,0>:d   {$0.dst}           // $5
(W)     mov (8|M0)               r127.0<1>:f   r74.0<1;1,0>:f                   {Compacted}          // $263
        sync.nop                             null                             {Compacted,$1.dst}     // $7
        add3 (16|M0)             r4.0<1>:d     r3.0<0;0>:d       r1.0<1;0>:uw      r7.0<0>:d        {I@1} // $7
        add3 (16|M16)            r10.0<1>:d    r3.0<0;0>:d       r2.0<1;0>:uw      r7.0<0>:d         // $8
        shl (16|M0)              r12.0<1>:d    r4.0<1;1,0>:d     3:w               {Compacted,I@2}   // $9
        shl (16|M16)             r14.0<1>:d    r10.0<1;1,0>:d    3:w               {Compacted,I@2}   // $10
        load.ugm.d32x2.a32.ca.ca (16|M0)  r18:4 bti[1][r12:2]      {A@2,$3} // ex_desc:0x1000000; desc:0x64481500 // $11
        load.ugm.d32x2.a32.ca.ca (16|M16)  r22:4 bti[1][r14:2]     {A@1,$4} // ex_desc:0x1000000; desc:0x64481500 // $12
        and (16|M0)              r16.0<1>:d    r12.0<1;1,0>:d    24:w               {Compacted}      // $15
        addc (8|M0)              r26.0<1>:ud   r8.0<0;1,0>:ud    r16.0<1;1,0>:ud  {AccWrEn,Compacted,I@1} // $17
        and (16|M16)             r28.0<1>:d    r14.0<1;1,0>:d    24:w               {Compacted}      // $16
        mov (8|M0)               r6.0<1>:ud    acc0.0<1;1,0>:ud                 {Compacted}          // $17
        addc (8|M8)              r27.0<1>:ud   r8.0<0;1,0>:ud    r17.0<1;1,0>:ud  {AccWrEn}          // $19
        mov (16|M0)              r35.0<1>:f    r18.0<1;1,0>:f                   {Compacted,$3.dst}   // $29
        mov (8|M8)               r30.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $19
        addc (8|M16)             r31.0<1>:ud   r8.0<0;1,0>:ud    r28.0<1;1,0>:ud  {AccWrEn,I@4}      // $21
        mov (16|M0)              r39.0<1>:f    r20.0<1;1,0>:f                   {Compacted}          // $31
        mov (8|M16)              r33.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $21
        addc (8|M24)             r32.0<1>:ud   r8.0<0;1,0>:ud    r29.0<1;1,0>:ud  {AccWrEn}          // $23
        mov (16|M16)             r37.0<1>:f    r22.0<1;1,0>:f                   {Compacted,$4.dst}   // $30
        mov (16|M16)             r41.0<1>:f    r24.0<1;1,0>:f                   {Compacted}          // $32
        mov (8|M24)              r34.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $23
        add (8|M0)               r43.1<2>:ud   r6.0<1;1,0>:ud    r8.1<0;1,0>:ud   {I@7}              // $18
        mov (8|M0)               r51.0<2>:d    r35.0<1;1,0>:d                   {F@4}                // $33
        mov (8|M8)               r53.0<2>:d    r36.0<1;1,0>:d                                        // $34
        add (8|M8)               r45.1<2>:ud   r30.0<1;1,0>:ud   r8.1<0;1,0>:ud   {I@7}              // $20
        add (8|M16)              r47.1<2>:ud   r33.0<1;1,0>:ud   r8.1<0;1,0>:ud   {I@7}              // $22
        mov (8|M16)              r16.0<2>:d    r37.0<1;1,0>:d                   {F@2}                // $37
        mov (8|M24)              r18.0<2>:d    r38.0<1;1,0>:d                                        // $38
        add (8|M24)              r49.1<2>:ud   r34.0<1;1,0>:ud   r8.1<0;1,0>:ud   {I@7}              // $24
        mov (8|M0)               r43.0<2>:d    r26.0<1;1,0>:d                                        // $25
        mov (8|M0)               r51.1<2>:d    r39.0<1;1,0>:d                                        // $35
        mov (8|M8)               r53.1<2>:d    r40.0<1;1,0>:d                                        // $36
        mov (8|M8)               r45.0<2>:d    r27.0<1;1,0>:d                                        // $25
        mov (8|M16)              r47.0<2>:d    r31.0<1;1,0>:d                                        // $27
        mov (8|M16)              r16.1<2>:d    r41.0<1;1,0>:d                   {F@1}                // $39
        mov (8|M24)              r18.1<2>:d    r42.0<1;1,0>:d                                        // $40
        mov (8|M24)              r49.0<2>:d    r32.0<1;1,0>:d                                        // $27
        atomic_iadd.ugm.d64.a64 (16|M0)  r20:4  [r43:4]           r51:4              {A@5,$5} // ex_desc:0x0; desc:0x840078C // $41
        atomic_iadd.ugm.d64.a64 (16|M16)  r55:4 [r47:4]           r16:4              {A@1,$6} // ex_desc:0x0; desc:0x840078C // $44
(W)     addc (1|M0)              r6.0<1>:ud    r8.0<0;1,0>:ud    0x20:ud              {AccWrEn}      // $61
        mov (8|M0)               r47.0<2>:d    r35.0<1;1,0>:d                   {$6.src}             // $69
(W)     mov (1|M0)               r24.0<1>:ud   acc0.0<0;1,0>:ud                 {Compacted}          // $61
        mov (8|M8)               r49.0<2>:d    r36.0<1;1,0>:d                                        // $70
(W)     add (1|M0)               r34.1<2>:ud   r24.0<0;1,0>:ud   r8.1<0;1,0>:ud   {I@2}              // $62
        mov (8|M0)               r47.1<2>:d    r39.0<1;1,0>:d                                        // $71
        mov (8|M0)               r51.0<2>:f    r6.0<0;1,0>:f                    {Compacted,$5.src}   // $77
        mov (8|M8)               r53.0<2>:f    r6.0<0;1,0>:f                    {Compacted}          // $77
        mov (8|M8)               r49.1<2>:d    r40.0<1;1,0>:d                                        // $72
        mov (8|M0)               r51.1<2>:f    r34.1<0;1,0>:f                   {Compacted,I@3}      // $78
        mov (8|M8)               r53.1<2>:f    r34.1<0;1,0>:f                   {Compacted}          // $78
        and (16|M0)   (eq)f0.0   null<1>:d     r4.0<1;1,0>:d     1:w               {Compacted}       // $208
        and (16|M16)  (eq)f0.0   null<1>:d     r10.0<1;1,0>:d    1:w                                 // $210
        mov (8|M0)               r25.0<1>:ud   r20.0<2;1,0>:ud                  {$5.dst}             // $42
        mov (8|M8)               r26.0<1>:ud   r22.0<2;1,0>:ud                                       // $42
        mov (8|M0)               r27.0<1>:ud   r20.1<2;1,0>:ud                                       // $43
        mov (8|M8)               r28.0<1>:ud   r22.1<2;1,0>:ud                                       // $43
        mov (8|M16)              r29.0<1>:ud   r55.0<2;1,0>:ud                  {$6.dst}             // $45
        mov (8|M24)              r30.0<1>:ud   r57.0<2;1,0>:ud                                       // $45
        mov (8|M16)              r31.0<1>:ud   r55.1<2;1,0>:ud                                       // $46
        mov (8|M24)              r32.0<1>:ud   r57.1<2;1,0>:ud                                       // $46
        mov (16|M0)              r43.0<1>:f    r25.0<1;1,0>:f                   {Compacted,A@7}      // $55
        mov (16|M0)              r45.0<1>:f    r27.0<1;1,0>:f                   {Compacted,A@5}      // $57
        mov (16|M16)             r16.0<1>:f    r29.0<1;1,0>:f                   {Compacted,A@3}      // $56
        mov (16|M16)             r18.0<1>:f    r31.0<1;1,0>:f                   {Compacted,A@1}      // $58
        store.ugm.d32x2.a32.wb.wb (16|M0)  bti[2][r12:2] r43:4     {A@3,$7} // ex_desc:0x2000000; desc:0x640E1504 // $59
        store.ugm.d32x2.a32.wb.wb (16|M16)  bti[2][r14:2] r16:4    {A@1,$8} // ex_desc:0x2000000; desc:0x640E1504 // $60
        mov (8|M16)              r20.0<2>:d    r37.0<1;1,0>:d                                        // $73
        mov (8|M24)              r22.0<2>:d    r38.0<1;1,0>:d                                        // $74
        mov (8|M16)              r16.0<2>:f    r6.0<0;1,0>:f                    {Compacted,$8.src}   // $82
        mov (8|M24)              r18.0<2>:f    r6.0<0;1,0>:f                    {Compacted}          // $82
        mov (8|M16)              r20.1<2>:d    r41.0<1;1,0>:d                                        // $75
        mov (8|M24)              r22.1<2>:d    r42.0<1;1,0>:d                                        // $76
        mov (8|M16)              r16.1<2>:f    r34.1<0;1,0>:f                   {Compacted}          // $83
        mov (8|M24)              r18.1<2>:f    r34.1<0;1,0>:f                   {Compacted}          // $83
        atomic_smax.ugm.d64.a64 (16|M0)  r24:4  [r51:4]           r47:4              {$9} // ex_desc:0x0; desc:0x840078F // $79
        atomic_smax.ugm.d64.a64 (16|M16)  r28:4 [r16:4]           r20:4              {A@1,$10} // ex_desc:0x0; desc:0x840078F // $84
(W)     addc (1|M0)              r32.0<1>:ud   r8.0<0;1,0>:ud    0x28:ud              {AccWrEn}      // $105
        add (16|M0)              r43.0<1>:d    r3.0<0;1,0>:d     r1.0<1;1,0>:uw   {$7.src}           // $5
        add (16|M16)             r45.0<1>:d    r3.0<0;1,0>:d     r2.0<1;1,0>:uw                      // $6
(W)     mov (1|M0)               r33.0<1>:ud   acc0.0<0;1,0>:ud                 {Compacted}          // $105
        add3 (16|M0)             r55.0<1>:d    r9.0<0;0>:d       r43.0<1;0>:d      r7.0<0>:d        {I@3} // $95
        add3 (16|M16)            r57.0<1>:d    r9.0<0;0>:d       r45.0<1;0>:d      r7.0<0>:d        {I@3} // $96
(W)     add (1|M0)               r6.1<2>:ud    r33.0<0;1,0>:ud   r8.1<0;1,0>:ud   {I@3}              // $106
        mov (8|M0)               r22.0<2>:d    r35.0<1;1,0>:d                   {$10.src}            // $113
        mov (8|M0)               r51.0<2>:f    r32.0<0;1,0>:f                   {Compacted,$9.src}   // $121
        mov (8|M8)               r53.0<2>:f    r32.0<0;1,0>:f                   {Compacted}          // $121
        shl (16|M0)              r55.0<1>:d    r55.0<1;1,0>:d    3:w               {Compacted,I@4}   // $97
        shl (16|M16)             r57.0<1>:d    r57.0<1;1,0>:d    3:w               {Compacted,I@4}   // $98
        mov (8|M0)               r22.1<2>:d    r39.0<1;1,0>:d                                        // $115
        mov (8|M0)               r51.1<2>:f    r6.1<0;1,0>:f                    {Compacted,I@5}      // $122
        mov (8|M8)               r53.1<2>:f    r6.1<0;1,0>:f                    {Compacted}          // $122
(W)     shl (1|M0)               r2.1<1>:d     r9.0<0;1,0>:d     1:w               {Compacted}       // $139
(W)     addc (1|M0)              r2.0<1>:ud    r8.0<0;1,0>:ud    0x30:ud              {AccWrEn}      // $150
(W)     mov (1|M0)               r3.0<1>:ud    acc0.0<0;1,0>:ud                 {Compacted}          // $150
        mov (8|M0)               r59.0<1>:ud   r24.0<2;1,0>:ud                  {$9.dst}             // $80
        mov (8|M8)               r60.0<1>:ud   r26.0<2;1,0>:ud                                       // $80
        mov (8|M0)               r61.0<1>:ud   r24.1<2;1,0>:ud                                       // $81
        mov (8|M8)               r62.0<1>:ud   r26.1<2;1,0>:ud                                       // $81
        mov (8|M16)              r63.0<1>:ud   r28.0<2;1,0>:ud                  {$10.dst}            // $85
        mov (8|M24)              r64.0<1>:ud   r30.0<2;1,0>:ud                                       // $85
        mov (8|M16)              r16.0<1>:ud   r28.1<2;1,0>:ud                                       // $86
        mov (8|M24)              r17.0<1>:ud   r30.1<2;1,0>:ud                                       // $86
        mov (16|M0)              r18.0<1>:f    r59.0<1;1,0>:f                   {Compacted,A@7}      // $99
        mov (8|M8)               r24.0<2>:d    r36.0<1;1,0>:d                                        // $114
        mov (16|M0)              r20.0<1>:f    r61.0<1;1,0>:f                   {Compacted,A@6}      // $101
        mov (16|M16)             r47.0<1>:f    r63.0<1;1,0>:f                   {Compacted,A@4}      // $100
        mov (16|M16)             r49.0<1>:f    r16.0<1;1,0>:f                   {Compacted,A@2}      // $102
        mov (8|M8)               r24.1<2>:d    r40.0<1;1,0>:d                                        // $116
        store.ugm.d32x2.a32.wb.wb (16|M0)  bti[2][r55:2] r18:4     {A@3,$11} // ex_desc:0x2000000; desc:0x640E1504 // $103
        store.ugm.d32x2.a32.wb.wb (16|M16)  bti[2][r57:2] r47:4    {A@1,$12} // ex_desc:0x2000000; desc:0x640E1504 // $104
        sync.nop                             null                             {Compacted,$12.src}    // $123
        atomic_umin.ugm.d64.a64 (16|M0)  r47:4  [r51:4]           r22:4              {A@1,$13} // ex_desc:0x0; desc:0x8400790 // $123
        mov (8|M16)              r26.0<2>:d    r37.0<1;1,0>:d                                        // $117
        mov (8|M24)              r28.0<2>:d    r38.0<1;1,0>:d                                        // $118
        mov (8|M16)              r16.0<2>:f    r32.0<0;1,0>:f                   {Compacted}          // $126
        mov (8|M24)              r18.0<2>:f    r32.0<0;1,0>:f                   {Compacted,$11.src}  // $126
        mov (8|M16)              r26.1<2>:d    r41.0<1;1,0>:d                                        // $119
        mov (8|M24)              r28.1<2>:d    r42.0<1;1,0>:d                                        // $120
        mov (8|M16)              r16.1<2>:f    r6.1<0;1,0>:f                    {Compacted}          // $127
        mov (8|M24)              r18.1<2>:f    r6.1<0;1,0>:f                    {Compacted}          // $127
        add3 (16|M0)             r20.0<1>:d    r2.1<0;0>:d       r43.0<1;0>:d      r7.0<0>:d         // $140 R{} IR{}{O:0,O:10,O:1,},  R{r2,r7,} IR{} {BC=1}
        atomic_umin.ugm.d64.a64 (16|M16)  r55:4 [r16:4]           r26:4              {A@1,$14} // ex_desc:0x0; desc:0x8400790 // $128
        add3 (16|M16)            r30.0<1>:d    r2.1<0;0>:d       r45.0<1;0>:d      r7.0<0>:d         // $141
(W)     add (1|M0)               r6.1<2>:ud    r3.0<0;1,0>:ud    r8.1<0;1,0>:ud                      // $151
        shl (16|M0)              r20.0<1>:d    r20.0<1;1,0>:d    3:w               {Compacted,I@3}   // $142
        mov (8|M16)              r51.0<2>:d    r37.0<1;1,0>:d                   {$13.src}            // $162
        mov (8|M24)              r53.0<2>:d    r38.0<1;1,0>:d                                        // $163
        shl (16|M16)             r30.0<1>:d    r30.0<1;1,0>:d    3:w               {Compacted,I@5}   // $143
        mov (8|M16)              r51.1<2>:d    r41.0<1;1,0>:d                                        // $164
        mov (8|M24)              r53.1<2>:d    r42.0<1;1,0>:d                                        // $165
        add (16|M0)              r28.0<1>:d    r12.0<1;1,0>:d    56:w               {Compacted,$14.src} // $194
        mov (8|M0)               r33.0<1>:ud   r47.0<2;1,0>:ud                  {$13.dst}            // $124
        mov (8|M8)               r34.0<1>:ud   r49.0<2;1,0>:ud                                       // $124
        mov (8|M0)               r59.0<1>:ud   r47.1<2;1,0>:ud                                       // $125
        mov (8|M8)               r60.0<1>:ud   r49.1<2;1,0>:ud                                       // $125
        mov (16|M0)              r16.0<1>:f    r33.0<1;1,0>:f                   {Compacted,A@3}      // $144
        mov (16|M0)              r18.0<1>:f    r59.0<1;1,0>:f                   {Compacted,A@1}      // $146
        store.ugm.d32x2.a32.wb.wb (16|M0)  bti[2][r20:2] r16:4     {A@1,$15} // ex_desc:0x2000000; desc:0x640E1504 // $148
        mov (8|M0)               r47.0<2>:d    r35.0<1;1,0>:d                                        // $158
        mov (8|M8)               r49.0<2>:d    r36.0<1;1,0>:d                                        // $159
        mov (8|M16)              r61.0<1>:ud   r55.0<2;1,0>:ud                  {$14.dst}            // $129
        mov (8|M24)              r62.0<1>:ud   r57.0<2;1,0>:ud                                       // $129
        mov (8|M16)              r22.0<1>:ud   r55.1<2;1,0>:ud                                       // $130
        mov (8|M24)              r23.0<1>:ud   r57.1<2;1,0>:ud                                       // $130
        mov (8|M16)              r20.0<2>:f    r2.0<0;1,0>:f                    {Compacted,$15.src}  // $171
        mov (8|M0)               r47.1<2>:d    r39.0<1;1,0>:d                                        // $160
        mov (8|M8)               r49.1<2>:d    r40.0<1;1,0>:d                                        // $161
        mov (16|M16)             r24.0<1>:f    r61.0<1;1,0>:f                   {Compacted,A@5}      // $145
        mov (8|M0)               r55.0<2>:f    r2.0<0;1,0>:f                    {Compacted,I@4}      // $166
        mov (8|M8)               r57.0<2>:f    r2.0<0;1,0>:f                    {Compacted,I@3}      // $166
        mov (16|M16)             r26.0<1>:f    r22.0<1;1,0>:f                   {Compacted}          // $147
        mov (8|M16)              r20.1<2>:f    r6.1<0;1,0>:f                    {Compacted}          // $172
        mov (8|M0)               r55.1<2>:f    r6.1<0;1,0>:f                    {Compacted}          // $167
        mov (8|M8)               r57.1<2>:f    r6.1<0;1,0>:f                    {Compacted}          // $167
        mov (8|M24)              r22.0<2>:f    r2.0<0;1,0>:f                    {Compacted}          // $171
        mov (8|M24)              r22.1<2>:f    r6.1<0;1,0>:f                    {Compacted}          // $172
        store.ugm.d32x2.a32.wb.wb (16|M16)  bti[2][r30:2] r24:4    {A@6,$0} // ex_desc:0x2000000; desc:0x640E1504 // $149
        atomic_store.ugm.d64.a64 (16|M0)  r16:4 [r55:4]           r47:4              {A@1,$1} // ex_desc:0x0; desc:0x840078B // $168
        atomic_store.ugm.d64.a64 (16|M16)  r24:4 [r20:4]          r51:4              {A@1,$2} // ex_desc:0x0; desc:0x840078B // $173
        addc (8|M0)              r30.0<1>:ud   r8.0<0;1,0>:ud    r28.0<1;1,0>:ud  {AccWrEn,Compacted,$0.src} // $196
        add (16|M16)             r32.0<1>:d    r14.0<1;1,0>:d    56:w               {Compacted}      // $195
        mov (8|M0)               r3.0<1>:ud    acc0.0<1;1,0>:ud                 {Compacted}          // $196
        addc (8|M8)              r31.0<1>:ud   r8.0<0;1,0>:ud    r29.0<1;1,0>:ud  {AccWrEn}          // $198
(W)     mov (1|M0)               r2.0<1>:hf    0x5:hf                                                // $212
        mov (8|M8)               r34.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $198
        sync.nop                             null                             {Compacted,$1.src}     // $200
        addc (8|M16)             r47.0<1>:ud   r8.0<0;1,0>:ud    r32.0<1;1,0>:ud  {AccWrEn,I@4}      // $200
        mov (16|M0)              r22.0<1>:d    0:w                               {$2.src}            // $216
        mad (16|M16)             r50.0<1>:d    r10.0<1;0>:d      r9.0<0;0>:d       3:w               // $185
        mov (16|M16)             r14.0<1>:d    0:w                                                   // $217
        mad (16|M0)              r28.0<1>:d    r4.0<1;0>:d       r9.0<0;0>:d       3:w               // $184
(f0.0)  sel (16|M0)              r20.0<1>:d    r2.0<0;1,0>:w     0:w               {F@1}             // $212
(f0.0)  sel (16|M16)             r12.0<1>:d    r2.0<0;1,0>:w     0:w                                 // $213
        mov (8|M16)              r49.0<1>:ud   acc0.0<1;1,0>:ud                 {Compacted}          // $200
        addc (8|M24)             r48.0<1>:ud   r8.0<0;1,0>:ud    r33.0<1;1,0>:ud  {AccWrEn}          // $202
        shl (16|M16)             r50.0<1>:d    r50.0<1;1,0>:d    3:w               {Compacted,I@7}   // $187
        shl (16|M0)              r28.0<1>:d    r28.0<1;1,0>:d    3:w               {Compacted,I@6}   // $186
        mov (8|M0)               r58.0<2>:d    r20.0<1;1,0>:d                   {I@6}                // $218
        mov (8|M8)               r60.0<2>:d    r21.0<1;1,0>:d                                        // $219
        mov (8|M16)              r4.0<2>:d     r12.0<1;1,0>:d                   {I@7}                // $222
        mov (8|M24)              r10.0<2>:d    r13.0<1;1,0>:d                                        // $223
        mov (8|M24)              r2.0<1>:ud    acc0.0<1;1,0>:ud                 {Compacted}          // $202
        mov (8|M0)               r58.1<2>:d    r22.0<1;1,0>:d                                        // $220
        mov (8|M8)               r60.1<2>:d    r23.0<1;1,0>:d                                        // $221
        mov (8|M16)              r4.1<2>:d     r14.0<1;1,0>:d                                        // $224
        mov (8|M24)              r10.1<2>:d    r15.0<1;1,0>:d                                        // $225
        add (8|M0)               r12.1<2>:ud   r3.0<1;1,0>:ud    r8.1<0;1,0>:ud                      // $197
        mov (8|M0)               r66.0<2>:ud   r58.0<2;1,0>:ud                  {I@5}                // $238
        mov (8|M8)               r68.0<2>:ud   r60.0<2;1,0>:ud                  {I@5}                // $238
        add (8|M8)               r14.1<2>:ud   r34.0<1;1,0>:ud   r8.1<0;1,0>:ud                      // $199
        mov (8|M0)               r12.0<2>:d    r30.0<1;1,0>:d                                        // $204
        mov (8|M0)               r66.1<2>:ud   r58.1<2;1,0>:ud                                       // $238
        mov (8|M8)               r68.1<2>:ud   r60.1<2;1,0>:ud                                       // $238
        mov (8|M8)               r14.0<2>:d    r31.0<1;1,0>:d                                        // $204
        mov (8|M0)               r52.0<1>:ud   r16.0<2;1,0>:ud                  {$1.dst}             // $169
        mov (8|M8)               r53.0<1>:ud   r18.0<2;1,0>:ud                                       // $169
        mov (8|M0)               r54.0<1>:ud   r16.1<2;1,0>:ud                                       // $170
        mov (8|M8)               r55.0<1>:ud   r18.1<2;1,0>:ud                                       // $170
        mov (8|M16)              r56.0<1>:ud   r24.0<2;1,0>:ud                  {$2.dst}             // $174
        mov (8|M24)              r57.0<1>:ud   r26.0<2;1,0>:ud                                       // $174
        mov (8|M16)              r32.0<1>:ud   r24.1<2;1,0>:ud                                       // $175
        mov (8|M24)              r33.0<1>:ud   r26.1<2;1,0>:ud                                       // $175
        mov (8|M0)               r16.0<2>:d    r35.0<1;1,0>:d                                        // $230
        mov (16|M0)              r20.0<1>:f    r52.0<1;1,0>:f                   {Compacted,A@7}      // $188
        mov (8|M8)               r18.0<2>:d    r36.0<1;1,0>:d                                        // $231
        mov (16|M0)              r22.0<1>:f    r54.0<1;1,0>:f                   {Compacted,A@7}      // $190
        mov (8|M16)              r24.0<2>:d    r37.0<1;1,0>:d                                        // $234
        mov (16|M16)             r62.0<1>:f    r56.0<1;1,0>:f                   {Compacted,A@6}      // $189
        mov (8|M24)              r26.0<2>:d    r38.0<1;1,0>:d                                        // $235
        mov (8|M0)               r16.1<2>:d    r39.0<1;1,0>:d                                        // $232
        mov (16|M16)             r64.0<1>:f    r32.0<1;1,0>:f                   {Compacted,A@6}      // $191
        mov (8|M8)               r18.1<2>:d    r40.0<1;1,0>:d                                        // $233
        mov (8|M16)              r24.1<2>:d    r41.0<1;1,0>:d                                        // $236
        mov (8|M24)              r26.1<2>:d    r42.0<1;1,0>:d                                        // $237
        store.ugm.d32x2.a32.wb.wb (16|M0)  bti[2][r28:2] r20:4     {A@3,$3} // ex_desc:0x2000000; desc:0x640E1504 // $192
        store.ugm.d32x2.a32.wb.wb (16|M16)  bti[2][r50:2] r62:4    {A@1,$4} // ex_desc:0x2000000; desc:0x640E1504 // $193
        mov (8|M24)              r52.0<2>:ud   r10.0<2;1,0>:ud                                       // $241
        add (8|M16)              r35.1<2>:ud   r49.0<1;1,0>:ud   r8.1<0;1,0>:ud                      // $201
        add (8|M24)              r37.1<2>:ud   r2.0<1;1,0>:ud    r8.1<0;1,0>:ud                      // $203
        mov (8|M0)               r70.0<2>:ud   r16.0<2;1,0>:ud                  {I@7}                // $238
        mov (8|M8)               r72.0<2>:ud   r18.0<2;1,0>:ud                  {I@7}                // $238
        mov (8|M16)              r54.0<2>:ud   r24.0<2;1,0>:ud                  {I@7}                // $241
        mov (8|M24)              r56.0<2>:ud   r26.0<2;1,0>:ud                  {I@7}                // $241
        mov (8|M16)              r50.0<2>:ud   r4.0<2;1,0>:ud                   {$4.src}             // $241
        mov (8|M24)              r52.1<2>:ud   r10.1<2;1,0>:ud                                       // $241
        mov (8|M16)              r35.0<2>:d    r47.0<1;1,0>:d                                        // $206
        mov (8|M24)              r37.0<2>:d    r48.0<1;1,0>:d                                        // $206
        mov (8|M0)               r70.1<2>:ud   r16.1<2;1,0>:ud                                       // $238
        mov (8|M8)               r72.1<2>:ud   r18.1<2;1,0>:ud                                       // $238
        mov (8|M16)              r54.1<2>:ud   r24.1<2;1,0>:ud                                       // $241
        mov (8|M24)              r56.1<2>:ud   r26.1<2;1,0>:ud                                       // $241
        mov (8|M16)              r50.1<2>:ud   r4.1<2;1,0>:ud                                        // $241
        atomic_icas.ugm.d64.a64 (16|M0)  r20:4  [r12:4]           r66:8              {A@4,$5} // ex_desc:0x0; desc:0x8400792 // $238
        sync.nop                             null                             {Compacted,$3.src}     // $241
        atomic_icas.ugm.d64.a64 (16|M16)  r28:4 [r35:4]           r50:8              {A@1,$6} // ex_desc:0x0; desc:0x8400792 // $241
(W)     shl (1|M0)               r2.0<1>:d     r9.0<0;1,0>:d     2:w               {Compacted}       // $252
        add3 (16|M0)             r16.0<1>:d    r2.0<0;0>:d       r43.0<1;0>:d      r7.0<0>:d        {I@1} // $253 R{} IR{}{O:0,O:10,O:1,},  R{r2,r7,} IR{} {BC=1}
        add3 (16|M16)            r18.0<1>:d    r2.0<0;0>:d       r45.0<1;0>:d      r7.0<0>:d         // $254
        shl (16|M0)              r16.0<1>:d    r16.0<1;1,0>:d    3:w               {Compacted,I@2}   // $255
        shl (16|M16)             r18.0<1>:d    r18.0<1;1,0>:d    3:w               {Compacted,I@2}   // $256
        mov (8|M0)               r32.0<1>:ud   r20.0<2;1,0>:ud                  {$5.dst}             // $239
        mov (8|M8)               r33.0<1>:ud   r22.0<2;1,0>:ud                                       // $239
        mov (8|M0)               r3.0<1>:ud    r20.1<2;1,0>:ud                                       // $240
        mov (8|M8)               r4.0<1>:ud    r22.1<2;1,0>:ud                                       // $240
        mov (8|M16)              r5.0<1>:ud    r28.0<2;1,0>:ud                  {$6.dst}             // $242
        mov (8|M24)              r6.0<1>:ud    r30.0<2;1,0>:ud                                       // $242
        mov (8|M16)              r10.0<1>:ud   r28.1<2;1,0>:ud                                       // $243
        mov (8|M24)              r11.0<1>:ud   r30.1<2;1,0>:ud                                       // $243
        mov (16|M0)              r12.0<1>:f    r32.0<1;1,0>:f                   {Compacted,A@7}      // $257
        mov (16|M0)              r14.0<1>:f    r3.0<1;1,0>:f                    {Compacted,A@5}      // $259
        mov (16|M16)             r24.0<1>:f    r5.0<1;1,0>:f                    {Compacted,A@3}      // $258
        mov (16|M16)             r26.0<1>:f    r10.0<1;1,0>:f                   {Compacted,A@1}      // $260
        store.ugm.d32x2.a32.wb.wb (16|M0)  bti[2][r16:2] r12:4     {A@3,$7} // ex_desc:0x2000000; desc:0x640E1504 // $261
        store.ugm.d32x2.a32.wb.wb (16|M16)  bti[2][r18:2] r24:4    {A@1,$8} // ex_desc:0x2000000; desc:0x640E1504 // $262
(W)     send.ugm (1|M0)          r2       r74     null:0  0x0            0x0210651F           {$9} // wr:1+0, rd:1; fence invalid flush type scoped to tile // $263
(W)     mov (8|M0)               null<1>:ud    r2.0<1;1,0>:ud                   {$9.dst}             //  memory fence commit; $263
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread // $263
L3784:
        nop                                                                                          // $263


//.BankConflicts: 2
//.BankConflicts.SameBank: 2
//.BankConflicts.TwoSrc: 0
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 480
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
