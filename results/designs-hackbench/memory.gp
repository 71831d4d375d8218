# slabsim: slab memory against hackbench throughput (million messages/s) (the cost of caching). Edit and re-run: gnuplot memory.gp (in this folder)
set terminal pngcairo size 1000,600 font ',10'
set output 'memory.png'
set termoption noenhanced
set datafile missing '?'
set grid
set key outside right top
set linetype 1 lc rgb '#1f77b4' lw 1.5
set linetype 2 lc rgb '#ff7f0e' lw 1.5
set linetype 3 lc rgb '#2ca02c' lw 1.5
set linetype 4 lc rgb '#d62728' lw 1.5
set linetype 5 lc rgb '#9467bd' lw 1.5
set linetype 6 lc rgb '#8c564b' lw 1.5
set linetype 7 lc rgb '#e377c2' lw 1.5
set linetype 8 lc rgb '#17becf' lw 1.5
set linetype 9 lc rgb '#bcbd22' lw 1.5
set linetype 10 lc rgb '#7f7f7f' lw 1.5
set linetype cycle 10
set title "designs-hackbench: hackbench 100 process\nloops=500 sample=auto (2 runs a point: the mean)"
set xlabel "hackbench throughput (million messages/s)"
set ylabel 'slab memory, peak (MB)'
set xrange [0:*]
set yrange [0:*]
plot 'memory.dat' index 0 using 1:3 with points pt 7 ps 0.6 lc 1 title "SLAB", '' index 0 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 1 notitle, \
     'memory.dat' index 1 using 1:3 with points pt 7 ps 0.6 lc 2 title "SLUB 2.6.26", '' index 1 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 2 notitle, \
     'memory.dat' index 2 using 1:3 with points pt 7 ps 0.6 lc 3 title "SLUB 3.2", '' index 2 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 3 notitle, \
     'memory.dat' index 3 using 1:3 with points pt 7 ps 0.6 lc 4 title "SLQB", '' index 3 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 4 notitle, \
     'memory.dat' index 4 using 1:3 with points pt 7 ps 0.6 lc 5 title "magazines", '' index 4 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 5 notitle, \
     'memory.dat' index 5 using 1:3 with points pt 7 ps 0.6 lc 6 title "magazines, 100 ms update", '' index 5 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 6 notitle, \
     'memory.dat' index 6 using 1:3 with points pt 7 ps 0.6 lc 7 title "SLUB 7.0 sheaves", '' index 6 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 7 notitle
