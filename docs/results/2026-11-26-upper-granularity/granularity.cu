// upper's access pattern (each thread walks its own contiguous chunk) copied
// by hand in several ways, to find what a software line cache must do to reach
// the memory floor: register staging 1-4 lines ahead (`ahead`, `bytes_ahead`),
// lines each thread fills alone (`own`) against lines the warp copies together
// in 16 B pieces (`coop`), and warp copies with different line sizes for the
// input and the output (`coop2`). Every variant's output is compared with the
// plain byte loop's. Build and run on the GPU:
//   nvcc -O3 -arch sm_90 -o granularity granularity.cu && ./granularity
// Results: ../2026-11-26-h100-upper-granularity.txt
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e){printf("err %s line %d\n",cudaGetErrorString(e),__LINE__);exit(1);}}while(0)
__device__ __forceinline__ uint32_t up4(uint32_t w){
  uint32_t r=0;
  #pragma unroll
  for(int k=0;k<4;k++){uint32_t c=(w>>(8*k))&0xff; if(c>='a'&&c<='z') c-=32; r|=c<<(8*k);}
  return r;
}
__global__ void plain(const char*__restrict__ in,char*__restrict__ out,unsigned long long n,unsigned long long chunk){
  unsigned long long t=(unsigned long long)blockIdx.x*blockDim.x+threadIdx.x, b=t*chunk, e=min(b+chunk,n);
  for(unsigned long long i=b;i<e;i++){char c=in[i]; out[i]=(c>='a'&&c<='z')?c-32:c;}
}
// D ahead: ring of D+1 lines of 32 B in registers
template<int D>
__global__ void ahead(const uint4*__restrict__ in,uint4*__restrict__ out,unsigned long long nl,unsigned long long chunkl){
  unsigned long long t=(unsigned long long)blockIdx.x*blockDim.x+threadIdx.x, b=t*chunkl, e=min(b+chunkl,nl);
  if(b>=e) return;
  uint4 ring[D+1][2];
  #pragma unroll
  for(int k=0;k<=D;k++){ if(b+k<e){ring[k][0]=in[2*(b+k)];ring[k][1]=in[2*(b+k)+1];} }
  for(unsigned long long l=b;l<e;l+=D+1){
    #pragma unroll
    for(int k=0;k<=D;k++){
      if(l+k<e){
        uint4 x=ring[k][0],y=ring[k][1];
        if(l+k+D+1<e){ring[k][0]=in[2*(l+k+D+1)];ring[k][1]=in[2*(l+k+D+1)+1];}
        x.x=up4(x.x);x.y=up4(x.y);x.z=up4(x.z);x.w=up4(x.w);
        y.x=up4(y.x);y.y=up4(y.y);y.z=up4(y.z);y.w=up4(y.w);
        out[2*(l+k)]=x;out[2*(l+k)+1]=y;
      }
    }
  }
}
// byte loop from registers, one ahead like the pass (loop over 32 bytes, data in a local array)
template<int D>
__global__ void bytes_ahead(const uint4*__restrict__ in,uint4*__restrict__ out,unsigned long long nl,unsigned long long chunkl){
  unsigned long long t=(unsigned long long)blockIdx.x*blockDim.x+threadIdx.x, b=t*chunkl, e=min(b+chunkl,nl);
  if(b>=e) return;
  __shared__ uint4 lines[1024*2];
  uint4 ring[D][2];
  #pragma unroll
  for(int k=0;k<D;k++){ if(b+k<e){ring[k][0]=in[2*(b+k)];ring[k][1]=in[2*(b+k)+1];} }
  unsigned char* s=(unsigned char*)&lines[2*threadIdx.x];
  for(unsigned long long l=b;l<e;l+=D){
    #pragma unroll
    for(int k=0;k<D;k++){
      if(l+k<e){
        ((uint4*)s)[0]=ring[k][0];((uint4*)s)[1]=ring[k][1];
        if(l+k+D<e){ring[k][0]=in[2*(l+k+D)];ring[k][1]=in[2*(l+k+D)+1];}
        #pragma unroll 4
        for(int i=0;i<32;i++){unsigned char c=s[i]; s[i]=(c>='a'&&c<='z')?c-32:c;}
        out[2*(l+k)]=((uint4*)s)[0];out[2*(l+k)+1]=((uint4*)s)[1];
      }
    }
  }
}

template<int G>
__global__ void coop(const uint4*__restrict__ in,uint4*__restrict__ out,unsigned long long n,unsigned long long chunk){
  extern __shared__ uint4 sm[];
  const int P=G/16; int lane=threadIdx.x&31; int w=threadIdx.x>>5;
  unsigned long long t=(unsigned long long)blockIdx.x*blockDim.x+threadIdx.x, b=t*chunk, e=min(b+chunk,n);
  unsigned long long wb=((unsigned long long)blockIdx.x*blockDim.x+w*32)*chunk;
  uint4* mine=sm+threadIdx.x*(P+1);
  for(unsigned long long j=0;j<chunk;j+=G){
    #pragma unroll
    for(int q=0;q<P;q++){int idx=q*32+lane; int o=idx/P, pc=idx%P; unsigned long long at=wb+o*chunk+j+pc*16;
      if(at<n) sm[(w*32+o)*(P+1)+pc]=in[at/16];}
    __syncwarp();
    if(b+j<e){
      uint32_t* m=(uint32_t*)mine;
      #pragma unroll 8
      for(int i=0;i<G/4;i++) m[i]=up4(m[i]);
    }
    __syncwarp();
    #pragma unroll
    for(int q=0;q<P;q++){int idx=q*32+lane; int o=idx/P, pc=idx%P; unsigned long long at=wb+o*chunk+j+pc*16;
      if(at<n) out[at/16]=sm[(w*32+o)*(P+1)+pc];}
    __syncwarp();
  }
}

// each thread fills its own address-aligned lines of G bytes (chunk as the app: not a multiple of G)
template<int G>
__global__ void own(const char*__restrict__ in,char*__restrict__ out,unsigned long long n,unsigned long long chunk){
  extern __shared__ uint4 sm[];
  const int P=G/16;
  unsigned long long t=(unsigned long long)blockIdx.x*blockDim.x+threadIdx.x, b=t*chunk, e=min(b+chunk,n);
  uint4* mine=sm+threadIdx.x*(P+1); unsigned char* mb=(unsigned char*)mine;
  for(unsigned long long ls=b/G*G; ls<e; ls+=G){
    #pragma unroll
    for(int q=0;q<P;q++){ if(ls+q*16+16<=n) mine[q]=((const uint4*)in)[ls/16+q]; else for(int k=0;k<16;k++) if(ls+q*16+k<n) mb[q*16+k]=in[ls+q*16+k]; }
    uint32_t* m=(uint32_t*)mine;
    #pragma unroll 8
    for(int i=0;i<G/4;i++) m[i]=up4(m[i]);
    unsigned long long lo=max(b,ls), hi=min(e,ls+G);
    if(lo==ls && hi==ls+G){
      #pragma unroll
      for(int q=0;q<P;q++) ((uint4*)out)[ls/16+q]=mine[q];
    } else for(unsigned long long i=lo;i<hi;i++) out[i]=mb[i-ls];
  }
}

// coop copies with separate line sizes for in (GI) and out (GO); GI a multiple of GO
template<int GI,int GO>
__global__ void coop2(const uint4*__restrict__ in,uint4*__restrict__ out,unsigned long long n,unsigned long long chunk){
  extern __shared__ uint4 sm[];
  const int PI=GI/16, PO=GO/16; int lane=threadIdx.x&31; int w=threadIdx.x>>5;
  unsigned long long t=(unsigned long long)blockIdx.x*blockDim.x+threadIdx.x, b=t*chunk, e=min(b+chunk,n);
  unsigned long long wb=((unsigned long long)blockIdx.x*blockDim.x+w*32)*chunk;
  uint4* iw=sm+(w*32)*(PI+1); uint4* ow=sm+blockDim.x*(PI+1)+(w*32)*(PO+1);
  for(unsigned long long j=0;j<chunk;j+=GI){
    #pragma unroll
    for(int q=0;q<PI;q++){int idx=q*32+lane; int o=idx/PI, pc=idx%PI; unsigned long long at=wb+o*chunk+j+pc*16;
      if(at<n) iw[o*(PI+1)+pc]=in[at/16];}
    __syncwarp();
    for(int s2=0;s2<GI/GO;s2++){
      if(b+j<e){
        uint32_t* m=(uint32_t*)(iw+lane*(PI+1)+s2*PO); uint32_t* d=(uint32_t*)(ow+lane*(PO+1));
        #pragma unroll 8
        for(int i=0;i<GO/4;i++) d[i]=up4(m[i]);
      }
      __syncwarp();
      #pragma unroll
      for(int q=0;q<PO;q++){int idx=q*32+lane; int o=idx/PO, pc=idx%PO; unsigned long long at=wb+o*chunk+j+s2*GO+pc*16;
        if(at<n) out[at/16]=ow[o*(PO+1)+pc];}
      __syncwarp();
    }
  }
}
int main(){
  const unsigned long long n=268435456ULL;
  char *in,*out; CK(cudaMalloc(&in,n)); CK(cudaMalloc(&out,n));
  std::vector<char> h(n); for(size_t i=0;i<n;i++) h[i]="aZ b.q"[i%6]+ (i%7==0);
  CK(cudaMemcpy(in,h.data(),n,cudaMemcpyHostToDevice));
  cudaEvent_t a,b; cudaEventCreate(&a); cudaEventCreate(&b);
  auto time=[&](auto f){ std::vector<float> ts; for(int r=0;r<6;r++){cudaEventRecord(a); f(); cudaEventRecord(b); CK(cudaEventSynchronize(b)); float ms; cudaEventElapsedTime(&ms,a,b); ts.push_back(ms);} std::sort(ts.begin(),ts.end()); return ts[3];};
  printf("d2d copy %.3f ms (median of 6)\n", time([&]{cudaMemcpyAsync(out,in,n,cudaMemcpyDeviceToDevice);}));
  std::vector<char> ref(n), got(n);
  int threads[]={128,256,512,1024}; int blocks[]={132,264,528,1056,2112};
  {plain<<<132,512>>>(in,out,n,(n+132*512-1)/(132*512)); CK(cudaMemcpy(ref.data(),out,n,cudaMemcpyDeviceToHost));}
  auto check=[&](const char* what,int th,int bl){ CK(cudaGetLastError()); CK(cudaMemcpy(got.data(),out,n,cudaMemcpyDeviceToHost)); if(got!=ref) printf("DIFFER %s %d x %d\n",what,th,bl); };
  printf("\n1. staging in registers, 32 B lines, chunks of whole lines (ms)\n");
  for(int th:threads) for(int bl:blocks){
    unsigned long long T=(unsigned long long)th*bl, chunk=(n+T-1)/T; chunk=(chunk+31)/32*32; unsigned long long cl=chunk/32, nl=n/32;
    float p=time([&]{plain<<<bl,th>>>(in,out,n,chunk);});
    float r0=time([&]{ahead<0><<<bl,th>>>((const uint4*)in,(uint4*)out,nl,cl);});
    float r1=time([&]{ahead<1><<<bl,th>>>((const uint4*)in,(uint4*)out,nl,cl);});
    float r3=time([&]{ahead<3><<<bl,th>>>((const uint4*)in,(uint4*)out,nl,cl);}); check("ahead<3>",th,bl);
    float b1=time([&]{bytes_ahead<1><<<bl,th>>>((const uint4*)in,(uint4*)out,nl,cl);});
    float b2=time([&]{bytes_ahead<2><<<bl,th>>>((const uint4*)in,(uint4*)out,nl,cl);});
    float b4=time([&]{bytes_ahead<4><<<bl,th>>>((const uint4*)in,(uint4*)out,nl,cl);}); check("bytes_ahead<4>",th,bl);
    printf("%4d x %4d plain %.3f  words: 0 ahead %.3f 1 ahead %.3f 3 ahead %.3f  bytes via shared: 1 ahead %.3f 2 ahead %.3f 4 ahead %.3f\n",th,bl,p,r0,r1,r3,b1,b2,b4);
  }
  printf("\n2. lines of G bytes: warp copies (chunks of whole lines) | each thread its own (chunks as the app: ceil(n / threads)) (ms; -1: over 227 KiB of shared memory)\n");
  int Gs[5]={32,64,128,256,512};
  for(int th:threads) for(int bl:blocks){
    unsigned long long T=(unsigned long long)th*bl; float g[5],o[5];
    for(int gi=0;gi<5;gi++){ int G=Gs[gi]; size_t sm=(size_t)th*(G+16); g[gi]=o[gi]=-1; if(sm>227*1024) continue;
      unsigned long long chunk=(n+T-1)/T, whole=(chunk+G-1)/G*G;
      auto go=[&](float* t,auto k,auto launch){ CK(cudaFuncSetAttribute(k,cudaFuncAttributeMaxDynamicSharedMemorySize,(int)sm)); cudaMemset(out,0,n); *t=time([&]{launch(k);}); check("G",th,bl); };
      auto c=[&](auto k){ go(&g[gi],k,[&](auto k2){k2<<<bl,th,sm>>>((const uint4*)in,(uint4*)out,n,whole);}); };
      auto w=[&](auto k){ go(&o[gi],k,[&](auto k2){k2<<<bl,th,sm>>>(in,out,n,chunk);}); };
      if(G==32){c(coop<32>);w(own<32>);} if(G==64){c(coop<64>);w(own<64>);} if(G==128){c(coop<128>);w(own<128>);}
      if(G==256){c(coop<256>);w(own<256>);} if(G==512){c(coop<512>);w(own<512>);}
    }
    printf("%4d x %4d warp G32 %.3f G64 %.3f G128 %.3f G256 %.3f G512 %.3f | own %.3f %.3f %.3f %.3f %.3f\n",th,bl,g[0],g[1],g[2],g[3],g[4],o[0],o[1],o[2],o[3],o[4]);
  }
  printf("\n3. warp copies, input/output line sizes (ms)\n");
  for(int th:threads) for(int bl:blocks){
    unsigned long long T=(unsigned long long)th*bl; float r[4]={-1,-1,-1,-1};
    auto go=[&](int gi,int GI,int GO,auto k){ size_t sm=(size_t)th*(GI+16+GO+16); if(sm>227*1024) return; unsigned long long chunk=(n+T-1)/T; chunk=(chunk+GI-1)/GI*GI;
      CK(cudaFuncSetAttribute(k,cudaFuncAttributeMaxDynamicSharedMemorySize,(int)sm)); cudaMemset(out,0,n); r[gi]=time([&]{k<<<bl,th,sm>>>((const uint4*)in,(uint4*)out,n,chunk);}); check("coop2",th,bl);};
    go(0,32,32,coop2<32,32>); go(1,128,32,coop2<128,32>); go(2,128,64,coop2<128,64>); go(3,128,128,coop2<128,128>);
    printf("%4d x %4d in/out 32/32 %.3f 128/32 %.3f 128/64 %.3f 128/128 %.3f\n",th,bl,r[0],r[1],r[2],r[3]);
  }
}
