//.kernel local32
//.platform DG2
//.thread_config numGRF=128, numAcc=4, numSWSB=16
//.options_string ""
//.full_options "-emitLocation -forceAssignRhysicalReg "" -enablePreemption -hasRNEandDenorm -noStitchExternFunc -useInlineData -crossThreadDataAlignment 32 -linker 0 -lscEnableImmOffsFor 196638 -abortonspill -TotalGRFNum 128 -boundsChecking -presched-ctrl 22 -presched-rp 100 -nodpsendreorder -SBIDDepLoc -output -binary -dumpcommonisa -shaderDumpFilter "" -dumpvisa -printHexFloatInAsm -noverifyCISA -enableHalfLSC -waLscUgmFence -insertRSDummyMov "
//.instCount 330
//.RA type	LOCAL_ROUND_ROBIN_RA

//.declare BuiltInR0 (0)  rf=r size=32 type=ud align=16 words (r0.0)
//.declare  (1)  rf=r size=32 type=ud align=16 words (r114.0)
//.declare BuiltinA0 (2)  rf=a size=4 type=ud align=1 words (a0.0)
//.declare BuiltinA0Dot2 (3)  rf=a size=4 type=ud align=1 words (a0.2)
//.declare %null (9)  rf=r size=4 type=ud align=2 words
//.declare %local_id_x (12)  rf=r size=4 type=ud align=2 words (r2.4)
//.declare %local_id_y (13)  rf=r size=4 type=ud align=2 words (r2.5)
//.declare %local_size_x (14)  rf=r size=4 type=ud align=2 words (r2.0)
//.declare %local_size_y (15)  rf=r size=4 type=ud align=2 words (r2.1)
//.declare %group_id_x (16)  rf=r size=4 type=ud align=2 words (r0.1)
//.declare %group_id_y (17)  rf=r size=4 type=ud align=2 words (r0.6)
//.declare %group_id_z (18)  rf=r size=4 type=ud align=2 words (r0.7)
//.declare %group_count_x (19)  rf=r size=4 type=ud align=2 words (r2.2)
//.declare %group_count_y (20)  rf=r size=4 type=ud align=2 words (r2.3)
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
//.declare V0033 (41)  rf=r size=32 type=d alias=+0 align=16 words (r114.0)
//.declare V0035 (43)  rf=r size=32 type=d alias=+0 align=16 words (r114.0)
//.declare V0036 (44)  rf=r size=32 type=d align=16 words (r7.0)
//.declare V0037 (45)  rf=r size=12 type=d align=2 words (r9.2)
//.declare V0038 (46)  rf=r size=12 type=d align=2 words (r9.5)
//.declare V0039 (47)  rf=r size=32 type=w align=16 words (r1.0)
//.declare V0040 (48)  rf=r size=32 type=w align=16 words (r2.0)
//.declare V0041 (49)  rf=r size=32 type=w align=16 words (r3.0)
//.declare V0042 (50)  rf=r size=32 type=w align=16 words (r4.0)
//.declare V0043 (51)  rf=r size=32 type=w align=16 words (r5.0)
//.declare V0044 (52)  rf=r size=32 type=w align=16 words (r6.0)
//.declare V0049 (57)  rf=r size=4 type=d align=16 words (r3.0)
//.declare V0050 (58)  rf=r size=64 type=d align=16 words (r115.0)
//.declare V0051 (59)  rf=r size=64 type=d align=16 words (r117.0)
//.declare V0052 (60)  rf=r size=32 type=uw alias=V0039+0 align=16 words (r1.0)
//.declare V0053 (61)  rf=r size=32 type=uw alias=V0040+0 align=16 words (r2.0)
//.declare V0054 (62)  rf=r size=64 type=d align=16 words (r119.0)
//.declare V0055 (63)  rf=r size=64 type=d align=16 words (r121.0)
//.declare V0056 (64)  rf=r size=64 type=d align=16 words (r123.0)
//.declare V0057 (65)  rf=r size=64 type=d align=16 words (r125.0)
//.declare P01 (66)  rf=f32  size=4 type=uw align=2 words (f0.0)
//.declare V0058 (67)  rf=r size=64 type=d align=16 words (r2.0)
//.declare V0059 (68)  rf=r size=64 type=d align=16 words (r4.0)
//.declare V0060 (69)  rf=r size=64 type=ud alias=V0058+0 align=16 words (r2.0)
//.declare V0061 (70)  rf=r size=64 type=ud alias=V0059+0 align=16 words (r4.0)
//.declare V0062 (71)  rf=r size=64 type=d align=16 words (r10.0)
//.declare V0063 (72)  rf=r size=64 type=d align=16 words (r12.0)
//.declare V0064 (73)  rf=r size=64 type=d align=16 words (r14.0)
//.declare V0065 (74)  rf=r size=64 type=d align=16 words (r16.0)
//.declare V0066 (75)  rf=r size=64 type=ud alias=V0064+0 align=16 words (r14.0)
//.declare V0067 (76)  rf=r size=64 type=ud alias=V0065+0 align=16 words (r16.0)
//.declare  (77)  rf=r size=32 type=ud align=16 words (r2.0)
//.declare  (78)  rf=r size=32 type=ud align=16 words (r3.0)
//.declare V0068 (79)  rf=r size=64 type=d align=16 words (r4.0)
//.declare V0069 (80)  rf=r size=64 type=d align=16 words (r10.0)
//.declare V0070 (81)  rf=r size=64 type=ud alias=V0068+0 align=16 words (r4.0)
//.declare V0071 (82)  rf=r size=64 type=ud alias=V0069+0 align=16 words (r10.0)
//.declare V0072 (83)  rf=r size=64 type=d align=16 words (r12.0)
//.declare V0073 (84)  rf=r size=64 type=d align=16 words (r14.0)
//.declare V0074 (85)  rf=r size=4 type=ud align=16 words (r16.0)
//.declare V0075 (86)  rf=r size=64 type=d align=16 words (r31.0)
//.declare V0076 (87)  rf=r size=64 type=d align=16 words (r33.0)
//.declare V0077 (88)  rf=r size=4 type=d align=16 words (r24.0)
//.declare V0078 (89)  rf=r size=4 type=d align=16 words (r25.0)
//.declare V0079 (90)  rf=r size=64 type=d align=16 words (r16.0)
//.declare V0080 (91)  rf=r size=64 type=d align=16 words (r18.0)
//.declare V0081 (92)  rf=r size=4 type=ud align=16 words (r26.0)
//.declare V0082 (93)  rf=r size=4 type=ud alias=V0078+0 align=16 words (r25.0)
//.declare V0083 (94)  rf=r size=4 type=ud alias=V0077+0 align=16 words (r24.0)
//.declare V0084 (95)  rf=r size=4 type=ud align=16 words (r17.0)
//.declare V0085 (96)  rf=r size=64 type=d align=16 words (r46.0)
//.declare V0086 (97)  rf=r size=64 type=d align=16 words (r48.0)
//.declare V0087 (98)  rf=r size=4 type=d align=16 words (r35.0)
//.declare V0088 (99)  rf=r size=4 type=d align=16 words (r36.0)
//.declare V0089 (100)  rf=r size=64 type=d align=16 words (r20.0)
//.declare V0090 (101)  rf=r size=64 type=d align=16 words (r22.0)
//.declare V0091 (102)  rf=r size=4 type=ud align=16 words (r37.0)
//.declare V0092 (103)  rf=r size=4 type=ud alias=V0088+0 align=16 words (r36.0)
//.declare V0093 (104)  rf=r size=4 type=ud alias=V0087+0 align=16 words (r35.0)
//.declare V0094 (105)  rf=r size=64 type=d align=16 words (r42.0)
//.declare V0095 (106)  rf=r size=64 type=d align=16 words (r44.0)
//.declare V0096 (107)  rf=r size=64 type=ud alias=V0094+0 align=16 words (r42.0)
//.declare V0097 (108)  rf=r size=64 type=ud alias=V0095+0 align=16 words (r44.0)
//.declare V0098 (109)  rf=r size=4 type=ud align=16 words (r18.0)
//.declare V0099 (110)  rf=r size=64 type=d align=16 words (r58.0)
//.declare V0100 (111)  rf=r size=64 type=d align=16 words (r60.0)
//.declare V0101 (112)  rf=r size=4 type=d align=16 words (r50.0)
//.declare V0102 (113)  rf=r size=4 type=d align=16 words (r51.0)
//.declare V0103 (114)  rf=r size=64 type=d align=16 words (r27.0)
//.declare V0104 (115)  rf=r size=64 type=d align=16 words (r29.0)
//.declare V0105 (116)  rf=r size=4 type=ud align=16 words (r52.0)
//.declare V0106 (117)  rf=r size=4 type=ud alias=V0102+0 align=16 words (r51.0)
//.declare V0107 (118)  rf=r size=4 type=ud alias=V0101+0 align=16 words (r50.0)
//.declare V0108 (119)  rf=r size=4 type=d align=2 words (r53.0)
//.declare V0109 (120)  rf=r size=64 type=d align=16 words (r54.0)
//.declare V0110 (121)  rf=r size=64 type=d align=16 words (r56.0)
//.declare V0111 (122)  rf=r size=64 type=ud alias=V0109+0 align=16 words (r54.0)
//.declare V0112 (123)  rf=r size=64 type=ud alias=V0110+0 align=16 words (r56.0)
//.declare V0113 (124)  rf=r size=4 type=ud align=16 words (r19.0)
//.declare V0114 (125)  rf=r size=64 type=d align=16 words (r69.0)
//.declare V0115 (126)  rf=r size=64 type=d align=16 words (r71.0)
//.declare V0116 (127)  rf=r size=4 type=d align=16 words (r62.0)
//.declare V0117 (128)  rf=r size=4 type=d align=16 words (r63.0)
//.declare V0118 (129)  rf=r size=64 type=d align=16 words (r38.0)
//.declare V0119 (130)  rf=r size=64 type=d align=16 words (r40.0)
//.declare V0120 (131)  rf=r size=4 type=ud align=16 words (r64.0)
//.declare V0121 (132)  rf=r size=4 type=ud alias=V0117+0 align=16 words (r63.0)
//.declare V0122 (133)  rf=r size=4 type=ud alias=V0116+0 align=16 words (r62.0)
//.declare V0123 (134)  rf=r size=64 type=d align=16 words (r65.0)
//.declare V0124 (135)  rf=r size=64 type=d align=16 words (r67.0)
//.declare V0125 (136)  rf=r size=64 type=ud alias=V0123+0 align=16 words (r65.0)
//.declare V0126 (137)  rf=r size=64 type=ud alias=V0124+0 align=16 words (r67.0)
//.declare V0127 (138)  rf=r size=4 type=ud align=16 words (r20.0)
//.declare V0128 (139)  rf=r size=64 type=d align=16 words (r86.0)
//.declare V0129 (140)  rf=r size=64 type=d align=16 words (r88.0)
//.declare V0130 (141)  rf=r size=64 type=d align=16 words (r73.0)
//.declare V0131 (142)  rf=r size=64 type=ud align=16 words (r77.0)
//.declare V0132 (143)  rf=r size=64 type=ud alias=V0130+0 align=16 words (r73.0)
//.declare V0133 (144)  rf=r size=64 type=ud alias=V0072+0 align=16 words (r12.0)
//.declare V0134 (145)  rf=r size=64 type=ud alias=V0073+0 align=16 words (r14.0)
//.declare V0135 (146)  rf=r size=64 type=ud alias=V0128+0 align=16 words (r86.0)
//.declare V0136 (147)  rf=r size=64 type=ud alias=V0129+0 align=16 words (r88.0)
//.declare V0137 (148)  rf=r size=64 type=d align=16 words (r75.0)
//.declare V0138 (149)  rf=r size=64 type=ud align=16 words (r79.0)
//.declare V0139 (150)  rf=r size=64 type=ud alias=V0137+0 align=16 words (r75.0)
//.declare V0140 (151)  rf=r size=4 type=d align=2 words (r81.0)
//.declare V0141 (152)  rf=r size=64 type=d align=16 words (r82.0)
//.declare V0142 (153)  rf=r size=64 type=d align=16 words (r84.0)
//.declare V0143 (154)  rf=r size=64 type=ud alias=V0141+0 align=16 words (r82.0)
//.declare V0144 (155)  rf=r size=64 type=ud alias=V0142+0 align=16 words (r84.0)
//.declare V0145 (156)  rf=r size=4 type=ud align=16 words (r21.0)
//.declare V0146 (157)  rf=r size=64 type=d align=16 words (r102.0)
//.declare V0147 (158)  rf=r size=64 type=d align=16 words (r104.0)
//.declare V0148 (159)  rf=r size=64 type=d align=16 words (r90.0)
//.declare V0149 (160)  rf=r size=64 type=ud align=16 words (r94.0)
//.declare V0150 (161)  rf=r size=64 type=ud alias=V0148+0 align=16 words (r90.0)
//.declare V0151 (162)  rf=r size=64 type=ud alias=V0146+0 align=16 words (r102.0)
//.declare V0152 (163)  rf=r size=64 type=ud alias=V0147+0 align=16 words (r104.0)
//.declare V0153 (164)  rf=r size=64 type=d align=16 words (r92.0)
//.declare V0154 (165)  rf=r size=64 type=ud align=16 words (r96.0)
//.declare V0155 (166)  rf=r size=64 type=ud alias=V0153+0 align=16 words (r92.0)
//.declare V0156 (167)  rf=r size=64 type=d align=16 words (r98.0)
//.declare V0157 (168)  rf=r size=64 type=d align=16 words (r100.0)
//.declare V0158 (169)  rf=r size=64 type=ud alias=V0156+0 align=16 words (r98.0)
//.declare V0159 (170)  rf=r size=64 type=ud alias=V0157+0 align=16 words (r100.0)
//.declare V0160 (171)  rf=r size=4 type=ud align=16 words (r22.0)
//.declare V0161 (172)  rf=r size=64 type=d align=16 words (r10.0)
//.declare V0162 (173)  rf=r size=64 type=d align=16 words (r16.0)
//.declare V0163 (174)  rf=r size=64 type=d align=16 words (r106.0)
//.declare V0164 (175)  rf=r size=64 type=ud align=16 words (r110.0)
//.declare V0165 (176)  rf=r size=64 type=ud alias=V0163+0 align=16 words (r106.0)
//.declare V0166 (177)  rf=r size=64 type=ud alias=V0161+0 align=16 words (r10.0)
//.declare V0167 (178)  rf=r size=64 type=ud alias=V0162+0 align=16 words (r16.0)
//.declare V0168 (179)  rf=r size=64 type=d align=16 words (r108.0)
//.declare V0169 (180)  rf=r size=64 type=ud align=16 words (r112.0)
//.declare V0170 (181)  rf=r size=64 type=ud alias=V0168+0 align=16 words (r108.0)
//.declare V0171 (182)  rf=r size=64 type=d align=16 words (r2.0)
//.declare V0172 (183)  rf=r size=64 type=d align=16 words (r4.0)
//.declare V0173 (184)  rf=r size=64 type=ud alias=V0171+0 align=16 words (r2.0)
//.declare V0174 (185)  rf=r size=64 type=ud alias=V0172+0 align=16 words (r4.0)
//.declare V0175 (186)  rf=r size=4 type=ud align=16 words (r23.0)
//.declare V0176 (187)  rf=r size=64 type=d align=16 words (r30.0)
//.declare V0177 (188)  rf=r size=64 type=d align=16 words (r32.0)
//.declare V0178 (189)  rf=r size=64 type=d align=16 words (r18.0)
//.declare V0179 (190)  rf=r size=64 type=ud align=16 words (r22.0)
//.declare V0180 (191)  rf=r size=64 type=ud alias=V0178+0 align=16 words (r18.0)
//.declare V0181 (192)  rf=r size=64 type=ud alias=V0176+0 align=16 words (r30.0)
//.declare V0182 (193)  rf=r size=64 type=ud alias=V0177+0 align=16 words (r32.0)
//.declare V0183 (194)  rf=r size=64 type=d align=16 words (r20.0)
//.declare V0184 (195)  rf=r size=64 type=ud align=16 words (r24.0)
//.declare V0185 (196)  rf=r size=64 type=ud alias=V0183+0 align=16 words (r20.0)
//.declare V0186 (197)  rf=r size=64 type=d align=16 words (r26.0)
//.declare V0187 (198)  rf=r size=64 type=d align=16 words (r28.0)
//.declare V0188 (199)  rf=r size=64 type=ud alias=V0186+0 align=16 words (r26.0)
//.declare V0189 (200)  rf=r size=64 type=ud alias=V0187+0 align=16 words (r28.0)
//.declare V0190 (201)  rf=r size=4 type=ud align=16 words (r24.0)
//.declare V0191 (202)  rf=r size=64 type=d align=16 words (r47.0)
//.declare V0192 (203)  rf=r size=64 type=d align=16 words (r49.0)
//.declare V0193 (204)  rf=r size=64 type=d align=16 words (r34.0)
//.declare V0194 (205)  rf=r size=64 type=ud align=16 words (r38.0)
//.declare V0195 (206)  rf=r size=64 type=ud alias=V0193+0 align=16 words (r34.0)
//.declare V0196 (207)  rf=r size=64 type=ud alias=V0191+0 align=16 words (r47.0)
//.declare V0197 (208)  rf=r size=64 type=ud alias=V0192+0 align=16 words (r49.0)
//.declare V0198 (209)  rf=r size=64 type=d align=16 words (r36.0)
//.declare V0199 (210)  rf=r size=64 type=ud align=16 words (r40.0)
//.declare V0200 (211)  rf=r size=64 type=ud alias=V0198+0 align=16 words (r36.0)
//.declare V0201 (212)  rf=r size=4 type=d align=2 words (r42.0)
//.declare V0202 (213)  rf=r size=64 type=d align=16 words (r43.0)
//.declare V0203 (214)  rf=r size=64 type=d align=16 words (r45.0)
//.declare V0204 (215)  rf=r size=64 type=ud alias=V0202+0 align=16 words (r43.0)
//.declare V0205 (216)  rf=r size=64 type=ud alias=V0203+0 align=16 words (r45.0)
//.declare V0206 (217)  rf=r size=4 type=ud align=16 words (r25.0)
//.declare V0207 (218)  rf=r size=64 type=d align=16 words (r63.0)
//.declare V0208 (219)  rf=r size=64 type=d align=16 words (r65.0)
//.declare V0209 (220)  rf=r size=64 type=d align=16 words (r51.0)
//.declare V0210 (221)  rf=r size=64 type=ud align=16 words (r55.0)
//.declare V0211 (222)  rf=r size=64 type=ud alias=V0209+0 align=16 words (r51.0)
//.declare V0212 (223)  rf=r size=64 type=ud alias=V0207+0 align=16 words (r63.0)
//.declare V0213 (224)  rf=r size=64 type=ud alias=V0208+0 align=16 words (r65.0)
//.declare V0214 (225)  rf=r size=64 type=d align=16 words (r53.0)
//.declare V0215 (226)  rf=r size=64 type=ud align=16 words (r57.0)
//.declare V0216 (227)  rf=r size=64 type=ud alias=V0214+0 align=16 words (r53.0)
//.declare V0217 (228)  rf=r size=64 type=d align=16 words (r59.0)
//.declare V0218 (229)  rf=r size=64 type=d align=16 words (r61.0)
//.declare V0219 (230)  rf=r size=64 type=ud alias=V0217+0 align=16 words (r59.0)
//.declare V0220 (231)  rf=r size=64 type=ud alias=V0218+0 align=16 words (r61.0)
//.declare V0221 (232)  rf=r size=4 type=ud align=16 words (r26.0)
//.declare V0222 (233)  rf=r size=64 type=d align=16 words (r79.0)
//.declare V0223 (234)  rf=r size=64 type=d align=16 words (r81.0)
//.declare V0224 (235)  rf=r size=64 type=d align=16 words (r67.0)
//.declare V0225 (236)  rf=r size=64 type=ud align=16 words (r71.0)
//.declare V0226 (237)  rf=r size=64 type=ud alias=V0224+0 align=16 words (r67.0)
//.declare V0227 (238)  rf=r size=64 type=ud alias=V0222+0 align=16 words (r79.0)
//.declare V0228 (239)  rf=r size=64 type=ud alias=V0223+0 align=16 words (r81.0)
//.declare V0229 (240)  rf=r size=64 type=d align=16 words (r69.0)
//.declare V0230 (241)  rf=r size=64 type=ud align=16 words (r73.0)
//.declare V0231 (242)  rf=r size=64 type=ud alias=V0229+0 align=16 words (r69.0)
//.declare V0232 (243)  rf=r size=64 type=d align=16 words (r75.0)
//.declare V0233 (244)  rf=r size=64 type=d align=16 words (r77.0)
//.declare V0234 (245)  rf=r size=64 type=ud alias=V0232+0 align=16 words (r75.0)
//.declare V0235 (246)  rf=r size=64 type=ud alias=V0233+0 align=16 words (r77.0)
//.declare V0236 (247)  rf=r size=4 type=ud align=16 words (r27.0)
//.declare V0237 (248)  rf=r size=64 type=d align=16 words (r95.0)
//.declare V0238 (249)  rf=r size=64 type=d align=16 words (r97.0)
//.declare V0239 (250)  rf=r size=64 type=d align=16 words (r83.0)
//.declare V0240 (251)  rf=r size=64 type=ud align=16 words (r87.0)
//.declare V0241 (252)  rf=r size=64 type=ud alias=V0239+0 align=16 words (r83.0)
//.declare V0242 (253)  rf=r size=64 type=ud alias=V0237+0 align=16 words (r95.0)
//.declare V0243 (254)  rf=r size=64 type=ud alias=V0238+0 align=16 words (r97.0)
//.declare V0244 (255)  rf=r size=64 type=d align=16 words (r85.0)
//.declare V0245 (256)  rf=r size=64 type=ud align=16 words (r89.0)
//.declare V0246 (257)  rf=r size=64 type=ud alias=V0244+0 align=16 words (r85.0)
//.declare V0247 (258)  rf=r size=64 type=d align=16 words (r91.0)
//.declare V0248 (259)  rf=r size=64 type=d align=16 words (r93.0)
//.declare V0249 (260)  rf=r size=64 type=ud alias=V0247+0 align=16 words (r91.0)
//.declare V0250 (261)  rf=r size=64 type=ud alias=V0248+0 align=16 words (r93.0)
//.declare V0251 (262)  rf=r size=4 type=ud align=16 words (r99.0)
//.declare V0252 (263)  rf=r size=4 type=d align=16 words (r100.0)
//.declare V0253 (264)  rf=r size=4 type=ud align=16 words (r28.0)
//.declare V0254 (265)  rf=r size=64 type=d align=16 words (r12.0)
//.declare V0255 (266)  rf=r size=64 type=d align=16 words (r14.0)
//.declare V0256 (267)  rf=r size=64 type=d align=16 words (r101.0)
//.declare V0258 (269)  rf=r size=64 type=ud align=16 words (r2.0)
//.declare V0259 (270)  rf=r size=64 type=ud alias=V0256+0 align=16 words (r101.0)
//.declare  (272)  rf=r size=128 type=ud align=16 words (r104.0)
//.declare V0261 (273)  rf=r size=64 type=ud alias=V0254+0 align=16 words (r12.0)
//.declare V0262 (274)  rf=r size=64 type=ud alias=V0255+0 align=16 words (r14.0)
//.declare V0263 (275)  rf=r size=64 type=d align=16 words (r108.0)
//.declare V0265 (277)  rf=r size=64 type=ud align=16 words (r4.0)
//.declare V0266 (278)  rf=r size=64 type=ud alias=V0263+0 align=16 words (r108.0)
//.declare  (280)  rf=r size=128 type=ud align=16 words (r110.0)
//.declare V0268 (281)  rf=r size=64 type=d align=16 words (r6.0)
//.declare V0269 (282)  rf=r size=64 type=d align=16 words (r10.0)
//.declare V0270 (283)  rf=r size=64 type=ud alias=V0268+0 align=16 words (r6.0)
//.declare V0271 (284)  rf=r size=64 type=ud alias=V0269+0 align=16 words (r10.0)
//.declare  (285)  rf=r size=32 type=ud align=16 words (r29.0)
//.declare  (286)  rf=r size=32 type=ud align=16 words (r30.0)
//.declare V0272 (287)  rf=r size=64 type=d align=16 words (r2.0)
//.declare V0273 (288)  rf=r size=64 type=d align=16 words (r4.0)
//.declare V0274 (289)  rf=r size=64 type=ud alias=V0272+0 align=16 words (r2.0)
//.declare V0275 (290)  rf=r size=64 type=ud alias=V0273+0 align=16 words (r4.0)
//.declare V0276 (291)  rf=r size=64 type=d align=16 words (r6.0)
//.declare V0277 (292)  rf=r size=64 type=d align=16 words (r8.0)
//.declare V0278 (293)  rf=r size=64 type=d align=16 words (r10.0)
//.declare V0279 (294)  rf=r size=64 type=d align=16 words (r12.0)
//.declare V0280 (295)  rf=r size=64 type=ud alias=V0278+0 align=16 words (r10.0)
//.declare V0281 (296)  rf=r size=64 type=ud alias=V0279+0 align=16 words (r12.0)
//.declare V0282 (297)  rf=r size=4 type=ud align=2 words (r8.0)
//.declare V0283 (298)  rf=r size=8 type=uq align=4 words (r8.1)
//.declare V0284 (299)  rf=r size=8 type=uq align=4 words (r8.2)
//.declare V0285 (300)  rf=r size=8 type=uq align=4 words (r8.3)
//.declare V0286 (301)  rf=r size=8 type=uq align=4 words (r9.0)
//.declare  (302)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (303)  rf=r size=32 type=ud align=16 words (r0.0)
//.declare  (304)  rf=r size=32 type=ud align=16 words (r127.0)
//.declare  (305)  rf=r size=32 type=ud align=16 words (r1.0)
//.declare  (306)  rf=r size=32 type=ud align=16 words (r7.0)
//.declare  (307)  rf=r size=128 type=ud align=16 words (r1.0)
//.declare  (308)  rf=r size=64 type=ud align=16 words (r5.0)
//.declare  (309)  rf=r size=64 type=ud align=16 words (r8.0)

// .inputs
// +----------+----------+--------+----------+------------+
// | id       | type     |  bytes | at       | class      |
// +----------+----------+--------+----------+------------+
// | V0039    | :w x 16  |     32 | r1       | general    |
// | V0040    | :w x 16  |     32 | r2       | general    |
// | V0041    | :w x 16  |     32 | r3       | general    |
// | V0042    | :w x 16  |     32 | r4       | general    |
// | V0043    | :w x 16  |     32 | r5       | general    |
// | V0044    | :w x 16  |     32 | r6       | general    |
// | V0036    | :d x 8   |     32 | r7       | general    |
// | V0282    | :ud      |      4 | r8       | general    |
// | V0283    | :uq      |      8 | r8+8     | general    |
// | V0284    | :uq      |      8 | r8+16    | general    |
// | V0285    | :uq      |      8 | r8+24    | general    |
// | V0286    | :uq      |      8 | r9       | general    |
// | V0037    | :d x 3   |     12 | r9+8     | general    |
// | V0038    | :d x 3   |     12 | r9+20    | general    |
// +----------+----------+--------+----------+------------+


// B000: Preds:{},  Succs:{B001}
per_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                                                // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     and (1|M0)               r127.0<1>:uw  r0.4<0;1,0>:uw    0xFF:uw                             // 
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x40:uw              {I@2}          // 
(W)     mad (1|M0)               r127.2<1>:ud  r127.2<0;0>:ud    r127.0<0;0>:uw    0xC0:uw              {I@1} // 
(W)     mov (8|M0)               r7.0<1>:ud    r1.0<1;1,0>:ud                                        // 
(W)     send.dc0 (8|M0)          r1       r127    null:0  0x0            0x024844FD           {A@1,$0} // wr:1h+0, rd:4; oword aligned block read x8 // $289
(W)     add (1|M0)               r127.2<1>:ud  r127.2<0;1,0>:ud  0x80:uw              {$0.src}       // 
(W)     send.dc0 (8|M0)          r5       r127    null:0  0x0            0x022843FD           {A@1,$1} // wr:1h+0, rd:2; oword aligned block read x4 // $289
        nop                                                                                          // 
        nop                                                                                          // 
        nop                                                                                          // 
// B001: Preds:{B000},  Succs:{B002}
// cross_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud                              {$1.src}          // 
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud                       // 
(W)     send.dc0 (8|M0)          r8       r127    null:0  0x0            0x022843FD           {A@1,$2} // wr:1h+0, rd:2; oword aligned block read x4 // $289
// B002: Preds:{B001},  Succs:{B003, B004}
// _main:
(W)     mov (8|M0)               r114.0<1>:ud  r0.0<1;1,0>:ud                                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {A@1}         // $1
        sync.nop                             null                             {Compacted,A@1}        // $9
        sync.nop                             null                             {Compacted,$0.dst}     // $9
        cmp (16|M0)   (lt)f0.0   null<1>:w     r1.0<1;1,0>:uw    0xD:uw              {A@1}           // $9
        cmp (16|M16)  (lt)f0.0   null<1>:w     r2.0<1;1,0>:uw    0xD:uw                              // $10
        sync.nop                             null                             {Compacted,$2.dst}     // $2
(W)     mul (1|M0)               acc0.0<1>:d   r9.5<0;1,0>:d     r114.2<0;1,0>:uw {I@4}              // $2
        mov (16|M0)              r115.0<1>:d   r1.0<1;1,0>:uw                                        // $3
        mov (16|M16)             r117.0<1>:d   r2.0<1;1,0>:uw                                        // $4
(W)     mach (1|M0)              r3.0<1>:d     r9.5<0;1,0>:d     r114.1<0;1,0>:d                     // $3
        add (16|M0)              r119.0<1>:d   r3.0<0;1,0>:d     r115.0<1;1,0>:d  {Compacted,I@1}    // $5
        add (16|M16)             r121.0<1>:d   r3.0<0;1,0>:d     r117.0<1;1,0>:d  {Compacted}        // $6
        add3 (16|M0)             r123.0<1>:d   r3.0<0;0>:d       r115.0<1;0>:d     r7.0<0>:d         // $7
        add3 (16|M16)            r125.0<1>:d   r3.0<0;0>:d       r117.0<1;0>:d     r7.0<0>:d         // $8
(~f0.0) goto (32|M0)                         _0_007            _0_007                                // $11
// B003: [inDivergent],  Preds:{B002},  Succs:{B004}
_0_008:
        shl (16|M0)              r2.0<1>:d     r115.0<1;1,0>:d   2:w               {Compacted}       // $13
        shl (16|M16)             r4.0<1>:d     r117.0<1;1,0>:d   2:w               {Compacted,$1.dst} // $14
        load.ugm.d32.a32.ca.ca (16|M0)  r10:2   bti[0][r2:2]       {A@2,$3} // ex_desc:0x0; desc:0x64280500 // $15
        load.ugm.d32.a32.ca.ca (16|M16)  r12:2  bti[0][r4:2]       {A@1,$4} // ex_desc:0x0; desc:0x64280500 // $16
        or (16|M0)               r14.0<1>:d    r2.0<1;1,0>:d     268435456:d                         // $17
        or (16|M16)              r16.0<1>:d    r4.0<1;1,0>:d     268435456:d                         // $18
        store.slm.d32.a32 (16|M0)  [r14:2]      r10:2              {A@2,$3} // ex_desc:0x0; desc:0x40E0504 // $19
        store.slm.d32.a32 (16|M16)  [r16:2]     r12:2              {A@1,$4} // ex_desc:0x0; desc:0x40E0504 // $20
// B004: Preds:{B003, B002},  Succs:{B005, B006}
_0_007:
        join (32|M0)                         L584                                                    // 
L584:
(W)     send.slm (1|M0)          r2       r114    null:0  0x0            0x0210011F           {$5} // wr:1+0, rd:1; fence.slm.none.group // $22
(W)     mov (1|M0)               r3.2<1>:f     0x0:f                               {Compacted}       //  (0x00000000:f); $23
(W)     mov (2|M0)               r3.10<1>:ub   r114.11<0;1,0>:ub                {F@1}                // $23
(W)     mov (8|M0)               null<1>:ud    r2.0<1;1,0>:ud                   {$5.dst}             //  memory fence commit; $23
(W)     send.gtwy (1|M0)         null     r3      null:0  0x0            0x02000004           {A@2,$6} // wr:1+0, rd:0; signal barrier // $23
(W)     sync.bar                             null                                                    // $23
        shl (16|M0)              r4.0<1>:d     r123.0<1;1,0>:d   2:w               {Compacted,$1.dst} // $24
        shl (16|M16)             r10.0<1>:d    r125.0<1;1,0>:d   2:w               {Compacted,$3.src} // $25
        sync.nop                             null                             {Compacted,$4.src}     // $26
        load.ugm.d32.a32.ca.ca (16|M0)  r12:2   bti[1][r4:2]       {A@2,$7} // ex_desc:0x1000000; desc:0x64280500 // $26
        load.ugm.d32.a32.ca.ca (16|M16)  r14:2  bti[1][r10:2]      {A@1,$8} // ex_desc:0x1000000; desc:0x64280500 // $27
(W)     mov (16|M0)              r16.0<1>:d    0:w                                                   // $30
(W)     mov (16|M16)             r18.0<1>:d    0:w                                                   // $32
(W)     mov (16|M0)              r20.0<1>:d    0:w                                                   // $57
(W)     mov (16|M16)             r22.0<1>:d    0:w                                                   // $59
        sync.nop                             null                             {Compacted,$7.dst}     // $31
        mov (16|M0)              r16.0<1>:f    r12.0<1;1,0>:f                   {Compacted,I@4}      // $31
        sync.nop                             null                             {Compacted,$8.dst}     // $33
        mov (16|M16)             r18.0<1>:f    r14.0<1;1,0>:f                   {Compacted,I@3}      // $33
(W)     add (8|M16)              r16.1<2>:d    r16.0<2;1,0>:d    r16.1<2;1,0>:d   {F@2}              // $34
(W)     add (8|M16)              r18.1<2>:d    r18.0<2;1,0>:d    r18.1<2;1,0>:d   {F@1}              // $40
(W)     add (4|M16)              r16.2<4>:d    r16.2<4;1,0>:d    r16.1<4;1,0>:d   {I@2}              // $35
(W)     add (4|M16)              r18.2<4>:d    r18.2<4;1,0>:d    r18.1<4;1,0>:d   {I@2}              // $41
(W)     add (4|M16)              r16.3<4>:d    r16.3<4;1,0>:d    r16.1<4;1,0>:d   {I@2}              // $36
(W)     add (4|M16)              r18.3<4>:d    r18.3<4;1,0>:d    r18.1<4;1,0>:d   {I@2}              // $42
(W)     add (4|M16)              r16.4<1>:d    r16.3<0;1,0>:d    r16.4<1;1,0>:d   {I@2}              // $37
(W)     add (4|M16)              r17.4<1>:d    r17.3<0;1,0>:d    r17.4<1;1,0>:d                      // $38
(W)     add (4|M16)              r18.4<1>:d    r18.3<0;1,0>:d    r18.4<1;1,0>:d   {I@3}              // $43
(W)     add (4|M16)              r19.4<1>:d    r19.3<0;1,0>:d    r19.4<1;1,0>:d                      // $44
(W)     add (8|M16)              r17.0<1>:d    r16.7<0;1,0>:d    r17.0<1;1,0>:d   {I@3}              // $39 R{} IR{}{E:4,E:4,},  {BC=1}
(W)     add (8|M16)              r19.0<1>:d    r18.7<0;1,0>:d    r19.0<1;1,0>:d   {I@2}              // $45 R{} IR{}{O:4,O:4,},  {BC=1}
        mov (16|M0)              r20.0<1>:d    -r12.0<1;1,0>:d                                       // $58
        mov (16|M16)             r22.0<1>:d    -r14.0<1;1,0>:d                                       // $60
(W)     add (16|M16)             r18.0<1>:d    r17.7<0;1,0>:d    r18.0<1;1,0>:d   {Compacted,I@3}    // $46
(W)     add (8|M16)              r20.1<2>:d    r20.0<2;1,0>:d    r20.1<2;1,0>:d   {I@3}              // $61
(W)     add (8|M16)              r22.1<2>:d    r22.0<2;1,0>:d    r22.1<2;1,0>:d   {I@3}              // $67
(W)     mov (1|M0)               r24.0<1>:f    0x10000000:f                               {Compacted} //  (0x10000000:f); $29
(W)     mov (1|M0)               r25.0<1>:d    r19.7<0;1,0>:d                   {I@3}                // $47
(W)     add (4|M16)              r20.2<4>:d    r20.2<4;1,0>:d    r20.1<4;1,0>:d   {I@3}              // $62
(W)     add (4|M16)              r22.2<4>:d    r22.2<4;1,0>:d    r22.1<4;1,0>:d   {I@3}              // $68
(W)     send.dc1 (1|M0)          r26      r24     r25:1   0x0            0x0210B7FE           {A@1,$9} // wr:1+1, rd:1; untyped atomic int32 integer add // $48
(W)     add (4|M16)              r20.3<4>:d    r20.3<4;1,0>:d    r20.1<4;1,0>:d   {I@2}              // $63
(W)     add (4|M16)              r22.3<4>:d    r22.3<4;1,0>:d    r22.1<4;1,0>:d   {I@2}              // $69
(W)     add (4|M16)              r20.4<1>:d    r20.3<0;1,0>:d    r20.4<1;1,0>:d   {I@2}              // $64
(W)     add (4|M16)              r21.4<1>:d    r21.3<0;1,0>:d    r21.4<1;1,0>:d                      // $65
(W)     add (4|M16)              r22.4<1>:d    r22.3<0;1,0>:d    r22.4<1;1,0>:d   {I@3}              // $70
(W)     add (4|M16)              r23.4<1>:d    r23.3<0;1,0>:d    r23.4<1;1,0>:d                      // $71
(W)     add (8|M16)              r21.0<1>:d    r20.7<0;1,0>:d    r21.0<1;1,0>:d   {I@3}              // $66 R{} IR{}{E:5,E:5,},  {BC=1}
(W)     add (8|M16)              r23.0<1>:d    r22.7<0;1,0>:d    r23.0<1;1,0>:d   {I@2}              // $72 R{} IR{}{O:5,O:5,},  {BC=1}
(W)     mov (16|M0)              r27.0<1>:d    0:w                                                   // $88
(W)     mov (16|M16)             r29.0<1>:d    0:w                                                   // $90
        mov (16|M0)              r27.0<1>:d    1:w                                                   // $89
        mov (16|M16)             r29.0<1>:d    1:w                                                   // $91
(W)     add (16|M0)              r16.0<1>:d    r16.0<1;1,0>:d    r26.0<0;1,0>:ud  {$9.dst}           // $49
(W)     add (16|M0)              r18.0<1>:d    r18.0<1;1,0>:d    r26.0<0;1,0>:ud                     // $51
(W)     add (16|M16)             r22.0<1>:d    r21.7<0;1,0>:d    r22.0<1;1,0>:d   {Compacted,I@7}    // $73
(W)     add (8|M16)              r27.1<2>:d    r27.0<2;1,0>:d    r27.1<2;1,0>:d   {I@5}              // $92
(W)     add (8|M16)              r29.1<2>:d    r29.0<2;1,0>:d    r29.1<2;1,0>:d   {I@5}              // $98
(W)     mov (1|M0)               r35.0<1>:f    0x10000004:f                                          //  (0x10000004:f); $56
        add (16|M0)              r31.0<1>:d    r16.0<1;1,0>:d    -r12.0<1;1,0>:d  {Compacted,I@5}    // $50
        add (16|M16)             r33.0<1>:d    r18.0<1;1,0>:d    -r14.0<1;1,0>:d  {Compacted,I@5}    // $52
(W)     mov (1|M0)               r36.0<1>:d    r23.7<0;1,0>:d                   {I@5}                // $74
(W)     add (4|M16)              r27.2<4>:d    r27.2<4;1,0>:d    r27.1<4;1,0>:d   {I@5}              // $93
(W)     add (4|M16)              r29.2<4>:d    r29.2<4;1,0>:d    r29.1<4;1,0>:d   {I@5}              // $99
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r4:2] r31:2        {A@5,$10} // ex_desc:0x2000000; desc:0x640E0504 // $53
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r10:2] r33:2      {A@4,$11} // ex_desc:0x2000000; desc:0x640E0504 // $54
(W)     send.dc1 (1|M0)          r37      r35     r36:1   0x0            0x0210B7FE           {A@1,$12} // wr:1+1, rd:1; untyped atomic int32 integer add // $75
(W)     add (4|M16)              r27.3<4>:d    r27.3<4;1,0>:d    r27.1<4;1,0>:d   {I@2}              // $94
(W)     add (4|M16)              r29.3<4>:d    r29.3<4;1,0>:d    r29.1<4;1,0>:d   {I@2}              // $100
(W)     add (4|M16)              r27.4<1>:d    r27.3<0;1,0>:d    r27.4<1;1,0>:d   {I@2}              // $95
(W)     add (4|M16)              r28.4<1>:d    r28.3<0;1,0>:d    r28.4<1;1,0>:d                      // $96
(W)     add (4|M16)              r29.4<1>:d    r29.3<0;1,0>:d    r29.4<1;1,0>:d   {I@3}              // $101
(W)     add (4|M16)              r30.4<1>:d    r30.3<0;1,0>:d    r30.4<1;1,0>:d                      // $102
(W)     add (8|M16)              r28.0<1>:d    r27.7<0;1,0>:d    r28.0<1;1,0>:d   {I@3}              // $97
(W)     add (8|M16)              r30.0<1>:d    r29.7<0;1,0>:d    r30.0<1;1,0>:d   {I@2}              // $103
(W)     mov (16|M0)              r38.0<1>:d    0:w                                                   // $120
(W)     mov (16|M16)             r40.0<1>:d    0:w                                                   // $122
        mov (16|M0)              r38.0<1>:d    -1:w                                                  // $121
        mov (16|M16)             r40.0<1>:d    -1:w                                                  // $123
        add3 (16|M0)             r42.0<1>:d    r9.2<0;0>:d       r119.0<1;0>:d     r7.0<0>:d         // $80
        add3 (16|M16)            r44.0<1>:d    r9.2<0;0>:d       r121.0<1;0>:d     r7.0<0>:d         // $81
(W)     add (16|M0)              r20.0<1>:d    r20.0<1;1,0>:d    r37.0<0;1,0>:ud  {$12.dst}          // $76
(W)     add (16|M0)              r22.0<1>:d    r22.0<1;1,0>:d    r37.0<0;1,0>:ud                     // $78
(W)     add (16|M16)             r29.0<1>:d    r28.7<0;1,0>:d    r29.0<1;1,0>:d   {Compacted,I@7}    // $104 R{} IR{}{E:7,E:7,},  R{r28,} IR{} {BC=1}
(W)     add (8|M16)              r38.1<2>:d    r38.0<2;1,0>:d    r38.1<2;1,0>:d   {I@7}              // $124
(W)     add (8|M16)              r40.1<2>:d    r40.0<2;1,0>:d    r40.1<2;1,0>:d   {I@7}              // $130
(W)     mov (1|M0)               r50.0<1>:f    0x10000008:f                                          //  (0x10000008:f); $87
        shl (16|M0)              r42.0<1>:d    r42.0<1;1,0>:d    2:w               {Compacted,I@7}   // $82
        shl (16|M16)             r44.0<1>:d    r44.0<1;1,0>:d    2:w               {Compacted,I@7}   // $83
        add (16|M0)              r46.0<1>:d    r20.0<1;1,0>:d    r12.0<1;1,0>:d   {Compacted,I@7}    // $77
        add (16|M16)             r48.0<1>:d    r22.0<1;1,0>:d    r14.0<1;1,0>:d   {Compacted,I@7}    // $79
(W)     mov (1|M0)               r51.0<1>:d    r30.7<0;1,0>:d                   {I@7}                // $105
(W)     add (4|M16)              r38.2<4>:d    r38.2<4;1,0>:d    r38.1<4;1,0>:d   {I@7}              // $125
(W)     add (4|M16)              r40.2<4>:d    r40.2<4;1,0>:d    r40.1<4;1,0>:d   {I@7}              // $131
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r42:2] r46:2       {A@5,$13} // ex_desc:0x2000000; desc:0x640E0504 // $84
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r44:2] r48:2      {A@4,$14} // ex_desc:0x2000000; desc:0x640E0504 // $85
(W)     send.dc1 (1|M0)          r52      r50     r51:1   0x0            0x0210B7FE           {A@1,$15} // wr:1+1, rd:1; untyped atomic int32 integer add // $106
(W)     add (4|M16)              r38.3<4>:d    r38.3<4;1,0>:d    r38.1<4;1,0>:d   {I@2}              // $126
(W)     add (4|M16)              r40.3<4>:d    r40.3<4;1,0>:d    r40.1<4;1,0>:d   {I@2}              // $132
(W)     add (4|M16)              r38.4<1>:d    r38.3<0;1,0>:d    r38.4<1;1,0>:d   {I@2}              // $127
(W)     add (4|M16)              r39.4<1>:d    r39.3<0;1,0>:d    r39.4<1;1,0>:d                      // $128
(W)     add (4|M16)              r40.4<1>:d    r40.3<0;1,0>:d    r40.4<1;1,0>:d   {I@3}              // $133
(W)     add (4|M16)              r41.4<1>:d    r41.3<0;1,0>:d    r41.4<1;1,0>:d                      // $134
(W)     shl (1|M0)               r53.0<1>:d    r9.2<0;1,0>:d     1:w               {Compacted}       // $111
(W)     add (8|M16)              r39.0<1>:d    r38.7<0;1,0>:d    r39.0<1;1,0>:d   {I@4}              // $129 R{} IR{}{O:9,O:9,},  {BC=1}
(W)     add (8|M16)              r41.0<1>:d    r40.7<0;1,0>:d    r41.0<1;1,0>:d   {I@3}              // $135 R{} IR{}{E:10,E:10,},  {BC=1}
(W)     add (16|M0)              r27.0<1>:d    r27.0<1;1,0>:d    r52.0<0;1,0>:ud  {$15.dst}          // $107
(W)     add (16|M0)              r29.0<1>:d    r29.0<1;1,0>:d    r52.0<0;1,0>:ud                     // $109
        add3 (16|M0)             r54.0<1>:d    r53.0<0;0>:d      r119.0<1;0>:d     r7.0<0>:d        {I@5} // $112
        add3 (16|M16)            r56.0<1>:d    r53.0<0;0>:d      r121.0<1;0>:d     r7.0<0>:d         // $113
(W)     add (16|M16)             r40.0<1>:d    r39.7<0;1,0>:d    r40.0<1;1,0>:d   {Compacted,I@5}    // $136
(W)     mov (1|M0)               r62.0<1>:f    0x1000000C:f                                          //  (0x1000000c:f); $119
        add (16|M0)              r58.0<1>:d    r27.0<1;1,0>:d    -1:w               {Compacted,I@5}  // $108
        add (16|M16)             r60.0<1>:d    r29.0<1;1,0>:d    -1:w               {Compacted,I@5}  // $110
        shl (16|M0)              r54.0<1>:d    r54.0<1;1,0>:d    2:w               {Compacted,I@5}   // $114
        shl (16|M16)             r56.0<1>:d    r56.0<1;1,0>:d    2:w               {Compacted,I@5}   // $115
(W)     mov (1|M0)               r63.0<1>:d    r41.7<0;1,0>:d                   {I@5}                // $137
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r54:2] r58:2       {A@3,$0} // ex_desc:0x2000000; desc:0x640E0504 // $116
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r56:2] r60:2      {A@2,$1} // ex_desc:0x2000000; desc:0x640E0504 // $117
(W)     send.dc1 (1|M0)          r64      r62     r63:1   0x0            0x0210B7FE           {A@1,$2} // wr:1+1, rd:1; untyped atomic int32 integer add // $138
        mad (16|M0)              r65.0<1>:d    r123.0<1;0>:d     r9.2<0;0>:d       3:w               // $143
        mad (16|M16)             r67.0<1>:d    r125.0<1;0>:d     r9.2<0;0>:d       3:w               // $144
        mov (16|M0)              r73.0<1>:f    0x10000010:f                                          //  (0x10000010:f); $150
(W)     add (16|M0)              r38.0<1>:d    r38.0<1;1,0>:d    r64.0<0;1,0>:ud  {$2.dst}           // $139
(W)     add (16|M0)              r40.0<1>:d    r40.0<1;1,0>:d    r64.0<0;1,0>:ud                     // $141
        mov (16|M16)             r75.0<1>:f    0x10000010:f                                          //  (0x10000010:f); $153
        shl (16|M0)              r65.0<1>:d    r65.0<1;1,0>:d    2:w               {Compacted,I@4}   // $145
        shl (16|M16)             r67.0<1>:d    r67.0<1;1,0>:d    2:w               {Compacted,I@4}   // $146
        add (16|M0)              r69.0<1>:d    r38.0<1;1,0>:d    1:w               {Compacted,I@4}   // $140
        add (16|M16)             r71.0<1>:d    r40.0<1;1,0>:d    1:w               {Compacted,I@4}   // $142
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r65:2] r69:2       {A@2,$3} // ex_desc:0x2000000; desc:0x640E0504 // $147
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r67:2] r71:2      {A@1,$4} // ex_desc:0x2000000; desc:0x640E0504 // $148
        sync.nop                             null                             {Compacted,F@2}        // $151
        atomic_smin.slm.d32.a32 (16|M0)  r77:2  [r73:2]           r12:2              {$5} // ex_desc:0x0; desc:0x420050E // $151
        sync.nop                             null                             {Compacted,F@1}        // $154
        atomic_smin.slm.d32.a32 (16|M16)  r79:2 [r75:2]           r14:2              {$7} // ex_desc:0x0; desc:0x420050E // $154
(W)     shl (1|M0)               r81.0<1>:d    r9.2<0;1,0>:d     2:w               {Compacted}       // $156
        mov (16|M0)              r90.0<1>:f    0x10000014:f                                          //  (0x10000014:f); $164
        add3 (16|M0)             r82.0<1>:d    r81.0<0;0>:d      r119.0<1;0>:d     r7.0<0>:d        {I@1} // $157
        add3 (16|M16)            r84.0<1>:d    r81.0<0;0>:d      r121.0<1;0>:d     r7.0<0>:d         // $158
        mov (16|M16)             r92.0<1>:f    0x10000014:f                                          //  (0x10000014:f); $167
        mov (16|M0)              r86.0<1>:f    r77.0<1;1,0>:f                   {Compacted,$5.dst}   // $152
        shl (16|M0)              r82.0<1>:d    r82.0<1;1,0>:d    2:w               {Compacted,I@2}   // $159
        mov (16|M16)             r88.0<1>:f    r79.0<1;1,0>:f                   {Compacted,$7.dst}   // $155
        shl (16|M16)             r84.0<1>:d    r84.0<1;1,0>:d    2:w               {Compacted,I@2}   // $160
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r82:2] r86:2       {A@2,$8} // ex_desc:0x2000000; desc:0x640E0504 // $161
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r84:2] r88:2      {A@1,$9} // ex_desc:0x2000000; desc:0x640E0504 // $162
        atomic_smax.slm.d32.a32 (16|M0)  r94:2  [r90:2]           r12:2              {$12} // ex_desc:0x0; desc:0x420050F // $165
        atomic_smax.slm.d32.a32 (16|M16)  r96:2 [r92:2]           r14:2              {$15} // ex_desc:0x0; desc:0x420050F // $168
        mad (16|M0)              r98.0<1>:d    r123.0<1;0>:d     r9.2<0;0>:d       5:w               // $170
        mad (16|M16)             r100.0<1>:d   r125.0<1;0>:d     r9.2<0;0>:d       5:w               // $171
        mov (16|M0)              r106.0<1>:f   0x10000018:f                                          //  (0x10000018:f); $177
        mov (16|M16)             r108.0<1>:f   0x10000018:f                                          //  (0x10000018:f); $180
        shl (16|M0)              r98.0<1>:d    r98.0<1;1,0>:d    2:w               {Compacted,I@2}   // $172
        mov (16|M0)              r102.0<1>:f   r94.0<1;1,0>:f                   {Compacted,$12.dst}  // $166
        shl (16|M16)             r100.0<1>:d   r100.0<1;1,0>:d   2:w               {Compacted,I@2}   // $173
        mov (16|M16)             r104.0<1>:f   r96.0<1;1,0>:f                   {Compacted,$15.dst}  // $169
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r98:2] r102:2      {A@2,$2} // ex_desc:0x2000000; desc:0x640E0504 // $174
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r100:2] r104:2    {A@1,$5} // ex_desc:0x2000000; desc:0x640E0504 // $175
        atomic_umin.slm.d32.a32 (16|M0)  r110:2 [r106:2]          r12:2              {$7} // ex_desc:0x0; desc:0x4200510 // $178
        atomic_umin.slm.d32.a32 (16|M16)  r112:2 [r108:2]         r14:2              {$12} // ex_desc:0x0; desc:0x4200510 // $181
        mad (16|M0)              r2.0<1>:d     r123.0<1;0>:d     r9.2<0;0>:d       6:w               {$6.src} // $183
        mad (16|M16)             r4.0<1>:d     r125.0<1;0>:d     r9.2<0;0>:d       6:w               {$10.src} // $184
        mov (16|M0)              r18.0<1>:f    0x1000001C:f                                          //  (0x1000001c:f); $190
        mov (16|M16)             r20.0<1>:f    0x1000001C:f                                          //  (0x1000001c:f); $193
        shl (16|M0)              r2.0<1>:d     r2.0<1;1,0>:d     2:w               {Compacted,I@2}   // $185
        sync.nop                             null                             {Compacted,$7.dst}     // $179
        mov (16|M0)              r10.0<1>:f    r110.0<1;1,0>:f                  {Compacted,$11.src}  // $179
        shl (16|M16)             r4.0<1>:d     r4.0<1;1,0>:d     2:w               {Compacted,I@2}   // $186
        mov (16|M16)             r16.0<1>:f    r112.0<1;1,0>:f                  {Compacted,$12.dst}  // $182
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r2:2] r10:2        {A@2,$15} // ex_desc:0x2000000; desc:0x640E0504 // $187
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r4:2] r16:2       {A@1,$6} // ex_desc:0x2000000; desc:0x640E0504 // $188
        atomic_umax.slm.d32.a32 (16|M0)  r22:2  [r18:2]           r12:2              {$7} // ex_desc:0x0; desc:0x4200511 // $191
        atomic_umax.slm.d32.a32 (16|M16)  r24:2 [r20:2]           r14:2              {$10} // ex_desc:0x0; desc:0x4200511 // $194
        mad (16|M0)              r26.0<1>:d    r123.0<1;0>:d     r9.2<0;0>:d       7:w               // $196
        mad (16|M16)             r28.0<1>:d    r125.0<1;0>:d     r9.2<0;0>:d       7:w               // $197
        mov (16|M0)              r34.0<1>:f    0x10000020:f                                          //  (0x10000020:f); $203
        mov (16|M16)             r36.0<1>:f    0x10000020:f                                          //  (0x10000020:f); $206
        shl (16|M0)              r26.0<1>:d    r26.0<1;1,0>:d    2:w               {Compacted,I@2}   // $198
        mov (16|M0)              r30.0<1>:f    r22.0<1;1,0>:f                   {Compacted,$7.dst}   // $192
        shl (16|M16)             r28.0<1>:d    r28.0<1;1,0>:d    2:w               {Compacted,I@2}   // $199
        mov (16|M16)             r32.0<1>:f    r24.0<1;1,0>:f                   {Compacted,$10.dst}  // $195
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r26:2] r30:2       {A@2,$11} // ex_desc:0x2000000; desc:0x640E0504 // $200
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r28:2] r32:2      {A@1,$12} // ex_desc:0x2000000; desc:0x640E0504 // $201
        atomic_and.slm.d32.a32 (16|M0)  r38:2   [r34:2]           r12:2              {$7} // ex_desc:0x0; desc:0x4200518 // $204
        atomic_and.slm.d32.a32 (16|M16)  r40:2  [r36:2]           r14:2              {$10} // ex_desc:0x0; desc:0x4200518 // $207
(W)     shl (1|M0)               r42.0<1>:d    r9.2<0;1,0>:d     3:w               {Compacted,$13.src} // $209
        mov (16|M0)              r51.0<1>:f    0x10000024:f                                          //  (0x10000024:f); $217
        sync.nop                             null                             {Compacted,$14.src}    // $210
        add3 (16|M0)             r43.0<1>:d    r42.0<0;0>:d      r119.0<1;0>:d     r7.0<0>:d        {I@1} // $210 R{} IR{}{O:10,O:13,O:1,},  R{r42,r7,} IR{} {BC=1}
        add3 (16|M16)            r45.0<1>:d    r42.0<0;0>:d      r121.0<1;0>:d     r7.0<0>:d         // $211
        mov (16|M16)             r53.0<1>:f    0x10000024:f                               {$0.src}   //  (0x10000024:f); $220
        mov (16|M0)              r47.0<1>:f    r38.0<1;1,0>:f                   {Compacted,$7.dst}   // $205
        shl (16|M0)              r43.0<1>:d    r43.0<1;1,0>:d    2:w               {Compacted,I@2}   // $212
        mov (16|M16)             r49.0<1>:f    r40.0<1;1,0>:f                   {Compacted,$10.dst}  // $208
        shl (16|M16)             r45.0<1>:d    r45.0<1;1,0>:d    2:w               {Compacted,I@2}   // $213
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r43:2] r47:2       {A@2,$13} // ex_desc:0x2000000; desc:0x640E0504 // $214
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r45:2] r49:2      {A@1,$14} // ex_desc:0x2000000; desc:0x640E0504 // $215
        sync.nop                             null                             {Compacted,$1.src}     // $218
        atomic_or.slm.d32.a32 (16|M0)  r55:2    [r51:2]           r12:2              {$0} // ex_desc:0x0; desc:0x4200519 // $218
        atomic_or.slm.d32.a32 (16|M16)  r57:2   [r53:2]           r14:2              {$1} // ex_desc:0x0; desc:0x4200519 // $221
        mad (16|M0)              r59.0<1>:d    r123.0<1;0>:d     r9.2<0;0>:d       9:w               // $223
        mad (16|M16)             r61.0<1>:d    r125.0<1;0>:d     r9.2<0;0>:d       9:w               // $224
        mov (16|M16)             r69.0<1>:f    0x10000028:f                               {$3.src}   //  (0x10000028:f); $233
        mov (16|M0)              r67.0<1>:f    0x10000028:f                               {$4.src}   //  (0x10000028:f); $230
        shl (16|M0)              r59.0<1>:d    r59.0<1;1,0>:d    2:w               {Compacted,I@2}   // $225
        mov (16|M0)              r63.0<1>:f    r55.0<1;1,0>:f                   {Compacted,$0.dst}   // $219
        shl (16|M16)             r61.0<1>:d    r61.0<1;1,0>:d    2:w               {Compacted,I@2}   // $226
        mov (16|M16)             r65.0<1>:f    r57.0<1;1,0>:f                   {Compacted,$1.dst}   // $222
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r59:2] r63:2       {A@2,$7} // ex_desc:0x2000000; desc:0x640E0504 // $227
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r61:2] r65:2      {A@1,$10} // ex_desc:0x2000000; desc:0x640E0504 // $228
        atomic_xor.slm.d32.a32 (16|M0)  r71:2   [r67:2]           r12:2              {$0} // ex_desc:0x0; desc:0x420051A // $231
        atomic_xor.slm.d32.a32 (16|M16)  r73:2  [r69:2]           r14:2              {$1} // ex_desc:0x0; desc:0x420051A // $234
        mad (16|M0)              r75.0<1>:d    r123.0<1;0>:d     r9.2<0;0>:d       10:w               // $236
        mad (16|M16)             r77.0<1>:d    r125.0<1;0>:d     r9.2<0;0>:d       10:w               // $237
        sync.nop                             null                             {Compacted,$9.src}     // $243
        mov (16|M0)              r83.0<1>:f    0x1000002C:f                               {$8.src}   //  (0x1000002c:f); $243
        mov (16|M16)             r85.0<1>:f    0x1000002C:f                                          //  (0x1000002c:f); $246
        shl (16|M0)              r75.0<1>:d    r75.0<1;1,0>:d    2:w               {Compacted,I@2}   // $238
        mov (16|M0)              r79.0<1>:f    r71.0<1;1,0>:f                   {Compacted,$0.dst}   // $232
        shl (16|M16)             r77.0<1>:d    r77.0<1;1,0>:d    2:w               {Compacted,I@2}   // $239
        mov (16|M16)             r81.0<1>:f    r73.0<1;1,0>:f                   {Compacted,$1.dst}   // $235
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r75:2] r79:2       {A@2,$3} // ex_desc:0x2000000; desc:0x640E0504 // $240
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r77:2] r81:2      {A@1,$4} // ex_desc:0x2000000; desc:0x640E0504 // $241
        atomic_store.slm.d32.a32 (16|M0)  r87:2 [r83:2]           r12:2              {$8} // ex_desc:0x0; desc:0x420050B // $244
        atomic_store.slm.d32.a32 (16|M16)  r89:2 [r85:2]          r14:2              {$9} // ex_desc:0x0; desc:0x420050B // $247
        mad (16|M0)              r91.0<1>:d    r123.0<1;0>:d     r9.2<0;0>:d       11:w               // $249
        mad (16|M16)             r93.0<1>:d    r125.0<1;0>:d     r9.2<0;0>:d       11:w               // $250
        shl (16|M0)              r91.0<1>:d    r91.0<1;1,0>:d    2:w               {Compacted,I@2}   // $251
        mov (16|M0)              r95.0<1>:f    r87.0<1;1,0>:f                   {Compacted,$8.dst}   // $245
        shl (16|M16)             r93.0<1>:d    r93.0<1;1,0>:d    2:w               {Compacted,I@2}   // $252
        sync.nop                             null                             {Compacted,$9.dst}     // $248
        mov (16|M16)             r97.0<1>:f    r89.0<1;1,0>:f                   {Compacted,$2.src}   // $248
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r91:2] r95:2       {A@2,$0} // ex_desc:0x2000000; desc:0x640E0504 // $253
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r93:2] r97:2      {A@1,$1} // ex_desc:0x2000000; desc:0x640E0504 // $254
(W)     mov (1|M0)               r99.0<1>:ud   0x30:uw                                               // $255
        mov (16|M0)              r101.0<1>:f   0x10000030:f                               {$5.src}   //  (0x10000030:f); $258
        mov (16|M0)              r106.0<1>:f   r12.0<1;1,0>:f                   {Compacted}          // $260
        mov (16|M16)             r108.0<1>:f   0x10000030:f                                          //  (0x10000030:f); $262
        mov (16|M16)             r112.0<1>:f   r14.0<1;1,0>:f                   {Compacted}          // $264
        mad (16|M16)             r10.0<1>:d    r125.0<1;0>:d     r9.2<0;0>:d       12:w               {$15.src} // $267
        mad (16|M0)              r6.0<1>:d     r123.0<1;0>:d     r9.2<0;0>:d       12:w               // $266
        shl (16|M16)             r10.0<1>:d    r10.0<1;1,0>:d    2:w               {Compacted,I@2}   // $269
        shl (16|M0)              r6.0<1>:d     r6.0<1;1,0>:d     2:w               {Compacted,I@2}   // $268
(W)     mov (1|M0)               r16.0<1>:f    0x10000000:f                               {Compacted,$6.src} //  (0x10000000:f); $28
(W)     mov (1|M0)               r17.0<1>:f    0x10000004:f                                          //  (0x10000004:f); $55
(W)     mov (1|M0)               r18.0<1>:f    0x10000008:f                                          //  (0x10000008:f); $86
(W)     mov (1|M0)               r19.0<1>:f    0x1000000C:f                                          //  (0x1000000c:f); $118
(W)     mov (1|M0)               r20.0<1>:f    0x10000010:f                                          //  (0x10000010:f); $149
(W)     mov (1|M0)               r21.0<1>:f    0x10000014:f                                          //  (0x10000014:f); $163
(W)     mov (1|M0)               r22.0<1>:f    0x10000018:f                                          //  (0x10000018:f); $176
(W)     mov (1|M0)               r23.0<1>:f    0x1000001C:f                                          //  (0x1000001c:f); $189
(W)     mov (1|M0)               r24.0<1>:f    0x10000020:f                                          //  (0x10000020:f); $202
(W)     mov (1|M0)               r25.0<1>:f    0x10000024:f                                          //  (0x10000024:f); $216
(W)     mov (1|M0)               r26.0<1>:f    0x10000028:f                               {$11.src}  //  (0x10000028:f); $229
(W)     mov (1|M0)               r27.0<1>:f    0x1000002C:f                                          //  (0x1000002c:f); $242
(W)     mov (1|M0)               r28.0<1>:f    0x10000030:f                               {$12.src}  //  (0x10000030:f); $257
(W)     load.ugm.d32x1t.a32.ca.ca (1|M0)  r100:1 bti[0][r99:1]     {$2} // ex_desc:0x0; desc:0x62188500 // $256
        mov (16|M0)              r104.0<1>:f   r100.0<0;1,0>:f                  {Compacted,$2.dst}   // $259
        mov (16|M16)             r110.0<1>:f   r100.0<0;1,0>:f                  {Compacted}          // $263
        atomic_icas.slm.d32.a32 (16|M0)  r2:2   [r101:2]          r104:4             {A@2,$5} // ex_desc:0x0; desc:0x4200512 // $260
        atomic_icas.slm.d32.a32 (16|M16)  r4:2  [r108:2]          r110:4             {A@1,$6} // ex_desc:0x0; desc:0x4200512 // $264
        mov (16|M0)              r12.0<1>:f    r2.0<1;1,0>:f                    {Compacted,$5.dst}   // $261
        mov (16|M16)             r14.0<1>:f    r4.0<1;1,0>:f                    {Compacted,$6.dst}   // $265
        store.ugm.d32.a32.wb.wb (16|M0)  bti[2][r6:2] r12:2        {A@1,$8} // ex_desc:0x2000000; desc:0x640E0504 // $270
        store.ugm.d32.a32.wb.wb (16|M16)  bti[2][r10:2] r14:2      {A@1,$9} // ex_desc:0x2000000; desc:0x640E0504 // $271
(W)     send.slm (1|M0)          r29      r114    null:0  0x0            0x0210011F           {$11} // wr:1+0, rd:1; fence.slm.none.group // $272
(W)     mov (1|M0)               r30.2<1>:f    0x0:f                               {Compacted}       //  (0x00000000:f); $273
(W)     mov (2|M0)               r30.10<1>:ub  r114.11<0;1,0>:ub                {F@1}                // $273
(W)     mov (8|M0)               null<1>:ud    r29.0<1;1,0>:ud                  {$11.dst}            //  memory fence commit; $273
(W)     send.gtwy (1|M0)         null     r30     null:0  0x0            0x02000004           {A@2,$12} // wr:1+0, rd:0; signal barrier // $273
(W)     sync.bar                             null                                                    // $273
(~f0.0) goto (32|M0)                         _0_009            _0_009                                // $274
// B005: [inDivergent],  Preds:{B004},  Succs:{B006}
_0_010:
        shl (16|M0)              r2.0<1>:d     r115.0<1;1,0>:d   2:w               {Compacted}       // $276
        shl (16|M16)             r4.0<1>:d     r117.0<1;1,0>:d   2:w               {Compacted}       // $277
        or (16|M0)               r2.0<1>:d     r2.0<1;1,0>:d     268435456:d               {I@2}     // $278
        or (16|M16)              r4.0<1>:d     r4.0<1;1,0>:d     268435456:d               {I@2}     // $279
        sync.nop                             null                             {Compacted,$8.src}     // $280
        load.slm.d32.a32 (16|M0)  r6:2          [r2:2]             {A@2,$15} // ex_desc:0x0; desc:0x4280500 // $280
        load.slm.d32.a32 (16|M16)  r8:2         [r4:2]             {A@1,$2} // ex_desc:0x0; desc:0x4280500 // $281
        mad (16|M0)              r10.0<1>:d    r115.0<1;0>:d     r114.1<0;0>:d     13:w               {$9.src} // $282 R{} IR{}{O:12,O:12,},  R{r114,} IR{} {BC=1}
        mad (16|M16)             r12.0<1>:d    r117.0<1;0>:d     r114.1<0;0>:d     13:w               // $283
        shl (16|M0)              r10.0<1>:d    r10.0<1;1,0>:d    2:w               {Compacted,I@2}   // $284
        shl (16|M16)             r12.0<1>:d    r12.0<1;1,0>:d    2:w               {Compacted,I@2}   // $285
        store.ugm.d32.a32.wb.wb (16|M0)  bti[3][r10:2] r6:2        {A@2,$15} // ex_desc:0x3000000; desc:0x640E0504 // $286
        store.ugm.d32.a32.wb.wb (16|M16)  bti[3][r12:2] r8:2       {A@1,$2} // ex_desc:0x3000000; desc:0x640E0504 // $287
// B006: Preds:{B005, B004},  Succs:{}
_0_009:
        join (32|M0)                         L4504                                                   // 
L4504:
(W)     mov (8|M0)               r127.0<1>:f   r114.0<1;1,0>:f                  {Compacted}          // $289
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread // $289
L4528:
        nop                                                                                          // $289


//.BankConflicts: 9
//.BankConflicts.SameBank: 1
//.BankConflicts.TwoSrc: 8
//.SIMD16ReadSuppressions: 0
//.SIMD8s: 498
//
//.RMWs: 0
//
//.accSubDef: 0
//.accSubUse: 0
//.accSubCandidateDef: 0
//.accSubCandidateUse: 0
