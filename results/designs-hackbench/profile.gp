# slabsim: profile: share of CPU time by kernel symbol, per point. Edit and re-run: gnuplot profile.gp (in this folder)
set terminal pngcairo size 1000,1546 font ',10'
set output 'profile.png'
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
set ylabel "machine, policy"
set key outside right top
set xlabel 'share of all CPU time (%)'
set xrange [0:100]
set yrange [63:-1] noreverse
set ytics font ',8'
set style fill solid 0.85 border -1
set grid xtics noytics
start(i) = (i > 2 ? sum [j=2:i-1] column(j) : 0)
plot for [i=2:10] 'profile.dat' using (start(i) + column(i) / 2):0:(start(i)):(start(i) + column(i)):($0 - 0.38):($0 + 0.38):ytic(1) with boxxyerror lc i-1 title columnheader(i)
