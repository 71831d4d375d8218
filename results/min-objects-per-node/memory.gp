# slabsim: slab memory against hackbench throughput (million messages/s) (the cost of caching). Edit and re-run: gnuplot memory.gp (in this folder)
set terminal pngcairo size 1000,600 font ',10'
set output 'memory.png'
set termoption noenhanced
set datafile missing '?'
set grid
set key below left Left reverse maxrows 4
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
set title "min-objects-per-node: slub, hackbench 100 process\nkernel=2.6.25 slub_max_order=3 loops=500 sample=auto (2 runs a point: the mean)"
set xlabel "hackbench throughput (million messages/s)"
set ylabel 'slab memory, peak (MB)'
set xrange [0:*]
set yrange [0:*]
plot 'memory.dat' index 0 using 1:3 with points pt 7 ps 0.6 lc 1 title "2.6.25 default", '' index 0 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 1 notitle, \
     'memory.dat' index 1 using 1:3 with points pt 7 ps 0.6 lc 2 title "2.6.26: 4 x (fls(cpus) + 1)", '' index 1 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 2 notitle, \
     'memory.dat' index 2 using 1:3 with points pt 7 ps 0.6 lc 3 title "2 x CPUs per node", '' index 2 using 1:3:5 with labels offset 0.8,0.6 font ',7' tc lt 3 notitle
