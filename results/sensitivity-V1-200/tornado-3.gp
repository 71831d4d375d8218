# slabsim sensitivity: re-run with gnuplot tornado-3.gp in this folder
set terminal pngcairo size 1000,472
set output 'tornado-3.png'
set termoption noenhanced
set title "V1: nehalem-ex, cpu_partial x8 (1.07277 x at the figures' values)"
set xlabel 'change of the check (%)'
set grid xtics
set key below center horizontal
set yrange [-0.6:8]
set xzeroaxis
set style fill solid 0.75 border -1
plot 'tornado-3.dat' using (0):0:($2<0?$2:0):($2<0?0:$2):($0):($0+0.35):ytic(1) with boxxyerror lc rgb '#1f77b4' title 'figure at the low end', \
     '' using (0):0:($3<0?$3:0):($3<0?0:$3):($0-0.35):($0) with boxxyerror lc rgb '#ff7f0e' title 'at the high end'
